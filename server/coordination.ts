/**
 * Who may write a user's change log and a session, held where the guarantee has to hold.
 *
 * - libsql (embedded): one process owns the file (database.ts refuses a second one), so the locks
 *   are in-process `KeyedLock`s and each write of the log and ADK's rows is a transaction of its own.
 * - Postgres: any number of server processes. A locked section is one transaction holding
 *   `pg_advisory_xact_lock`s on the session's and the user's keys; its writes to the log and to
 *   ADK's tables are in that transaction, so they commit whole and the locks fall at the commit
 *   (or when a killed process's connection drops). `seq` is `max + 1` read under the user's lock,
 *   and a waiter's next statement sees the holder's commit, so sequence numbers are dense and
 *   committed in order across processes. Measured against `SELECT … FOR UPDATE` on a per-user
 *   row and a counter table (`npm run bench:sync:locks`, 8 transactions at once, this 2-core
 *   machine; figures in docs/sync.md): on one user the advisory lock gave 107-182 commits/s, FOR
 *   UPDATE 129-213, a counter row 171-264 (it saves the `max(seq)` read); on eight users all three
 *   345-486. Advisory locks anyway: a session's lock must be held through a whole agent turn
 *   (`runExclusive`) while ADK's own `appendEvent` in that turn updates the session's row, which a
 *   row lock on it would block for ever; a session being created has no row yet; and one
 *   mechanism for both keys keeps the order rule checkable. The `max(seq)` read a counter row would
 *   save is part of the log's insert statement (log.ts), so it costs no round trip. A push of up
 *   to 500 events is seven statements: BEGIN, the set-up and both locks, the session's head, the
 *   events already placed, ADK's rows, the log's rows with the notice, COMMIT.
 *   At most `SLOTS` sections and `TURNS` agent turns run at once per process, each bound queued
 *   beyond: a section or turn holds a pooled connection, and ADK's own calls made inside it
 *   (creating, listing, reading sessions; a turn's `appendEvent`) need a second one from the same
 *   pool, so with either unbounded the pool ran out of second connections and every holder waited
 *   for ever. `POOL_SIZE` covers both bounds twice over, plus reads outside any section. Turns have
 *   a bound of their own so that long turns cannot starve pushes of their slots. A section first
 *   queues on an in-process lock of its session, so one process's pushes to a session held by an
 *   agent turn take one slot between them, not one each.
 *
 * Order, everywhere: a session's lock before its user's; the user's lock is taken last and its
 * holder waits for nothing but the database, so no cycle can form across processes.
 */
import type { Event as AdkEvent } from '@google/adk';
import { type EntityManager, IsolationLevel, type MikroORM } from '@mikro-orm/core';
import { appendToAdk, appendToAdkSql, rewriteInAdk } from './adk-tables.js';
import type { EventRewrite, SessionKey, Sql } from './database.js';
import { listenOn, type RawConnections } from './listen.js';
import { KeyedLock } from './locks.js';

/** Writes that commit together: the change log's statements and ADK's rows. */
export interface Writer {
  sql: Sql;
  appendEvents(key: SessionKey, events: AdkEvent[]): Promise<void>;
  rewriteEvents(change: EventRewrite): Promise<void>;
  /** Where the change log's appends are announced to every process, at the commit (Postgres; none on libsql). */
  channel?: string;
}

export interface Section {
  /** Reads under the section's locks (on Postgres, inside its transaction). */
  sql: Sql;
  /** Runs `work` also holding `userKey`: after the session's lock, before anything is written. */
  underUser<T>(userKey: string, work: () => Promise<T>): Promise<T>;
  /** Runs `work`'s writes as one commit (on Postgres, the section's own transaction). */
  atomic<T>(work: (writer: Writer) => Promise<T>): Promise<T>;
}

export interface RunOptions {
  /**
   * A section that runs for an agent turn (`runExclusive`), bounded by `TURNS` instead of `SLOTS`
   * so it cannot starve pushes of their slots.
   */
  long?: boolean;
  /**
   * The user's key when `work` will take it at once (`underUser` before anything else): taken
   * with the session's, in the same statement, one round trip less per push.
   */
  user?: string;
}

export interface Coordinator {
  readonly shared: boolean;
  /** Runs `work` holding `sessionKey` (or no session, only what `underUser` takes). */
  run<T>(sessionKey: string | undefined, work: (section: Section) => Promise<T>, options?: RunOptions): Promise<T>;
  /**
   * Hears every process's NOTIFY payloads (its own too) until `close`. `resumed` runs each time
   * the listening connection is (re)established: what was announced while it was down is lost.
   */
  listen(heard: (payload: string) => void, resumed: () => void): Promise<{ close(): Promise<void> }>;
}

export const CHANNEL = 'sync_changes';

export function localCoordinator(orm: MikroORM, sql: Sql): Coordinator {
  const sessions = new KeyedLock();
  const users = new KeyedLock();
  const section: Section = {
    sql,
    underUser: (key, work) => users.run(key, work),
    atomic: (work) =>
      orm.em.fork().transactional((em) => work(writer(em, (key, events) => appendToAdk(em, key, events)))),
  };
  return {
    shared: false,
    run: (key, work) => (key === undefined ? work(section) : sessions.run(key, () => work(section))),
    // One process: its own listeners are all there are.
    listen: async () => ({ close: async () => {} }),
  };
}

const SLOTS = 4;
const LOCK = 'pg_advisory_xact_lock(hashtextextended(?, 0))';
export const TURNS = 4;
/**
 * How long Postgres lets a push's transaction sit idle before it ends it, locks and all. A push
 * sends its statements back to back, so only a process cut off from the database (a partition:
 * no FIN, no reset) leaves one idle; the other processes then wait at most this long for its
 * sessions. Agent turns (`runExclusive`) are idle for as long as the model thinks and are left to
 * TCP keepalives (docs/sync.md).
 */
export const SECTION_IDLE_MS = 10_000;
const IDLE_LIMIT = `set_config('idle_in_transaction_session_timeout', '${SECTION_IDLE_MS}', true)`;
/** Two connections per section and turn (its own and one for ADK's calls), and a few for reads outside them. */
export const POOL_SIZE = 2 * (SLOTS + TURNS) + 4;

/**
 * Asked for, not assumed from the database's default: a waiter's next statement must see the
 * holder's commit (the dense `seq` above), which a snapshot from the transaction's start would not.
 */
const READ_COMMITTED = { isolationLevel: IsolationLevel.READ_COMMITTED };

/** `eventColumn`: ADK's `event_data` of an event (adk-tables.ts `eventColumnOf`). */
export function postgresCoordinator(orm: MikroORM, eventColumn: (event: AdkEvent) => string): Coordinator {
  const slots = new Semaphore(SLOTS);
  const turns = new Semaphore(TURNS);
  const open = <T>(sessionKey: string | undefined, work: (section: Section) => Promise<T>, options: RunOptions) =>
    orm.em.fork().transactional(async (em) => {
      const sql = bound(em);
      const lock = (key: string) => sql(`SELECT ${LOCK}`, [key]);
      // A push's transaction is never idle for long but in a partition, where nothing tells
      // Postgres its process is gone and the locks would be held until TCP gives up.
      const setup = options.long ? [] : [IDLE_LIMIT];
      // One statement for the set-up and the first locks. Both keys: the user's lock is in the
      // outer query, taken on the inner query's row, so after the session's (the order rule above).
      if (sessionKey !== undefined && options.user !== undefined)
        await sql(`SELECT ${LOCK} FROM (SELECT ${[...setup, LOCK].join(', ')}) AS first`, [options.user, sessionKey]);
      else {
        const keys = [sessionKey ?? options.user].filter((k) => k !== undefined);
        const columns = [...setup, ...keys.map(() => LOCK)];
        if (columns.length > 0) await sql(`SELECT ${columns.join(', ')}`, keys);
      }
      const w = writer(em, (key, events) => appendToAdkSql(sql, eventColumn, key, events), CHANNEL);
      return work({
        sql,
        underUser: async (key, inner) => {
          if (key !== options.user) await lock(key);
          return inner();
        },
        atomic: async (inner) => {
          const result = await inner(w);
          // ADK's entities reach the database at a flush; before the commit, so a failure rolls all back.
          await em.flush();
          return result;
        },
      });
    }, READ_COMMITTED);
  // In front of the database's lock: this process's own pushes to a session under an agent turn
  // wait here, not each in a slot (a connection) of their own.
  const local = new KeyedLock();
  const gated = <T>(key: string | undefined, inner: () => Promise<T>) =>
    key === undefined ? inner() : local.run(key, inner);
  return {
    shared: true,
    run: (key, work, options = {}) =>
      gated(key, () => (options.long ? turns : slots).run(() => open(key, work, options))),
    listen: (heard, resumed) => {
      const knex = (orm.em.getConnection() as unknown as { getKnex(): { client: RawConnections } }).getKnex();
      return listenOn(knex.client, CHANNEL, heard, resumed);
    },
  };
}

/** The raw-query function inside `em`'s transaction. */
export function bound(em: EntityManager): Sql {
  const connection = em.getConnection();
  return (query, params = []) => connection.execute(query, params, 'all', em.getTransactionContext());
}

function writer(em: EntityManager, appendEvents: Writer['appendEvents'], channel?: string): Writer {
  return {
    sql: bound(em),
    appendEvents,
    rewriteEvents: (change) => rewriteInAdk(em, change),
    ...(channel === undefined ? {} : { channel }),
  };
}

class Semaphore {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
