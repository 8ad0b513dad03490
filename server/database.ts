/**
 * Opening ADK's `DatabaseSessionService` and the change log the server keeps
 * beside ADK's tables, in the same database, with the coordination its
 * dialect allows (coordination.ts). ADK's `init()` creates or updates its own
 * tables and leaves others alone. A libsql file belongs to one process (its
 * locks and pokes are in-process: a second one would hand out the same sequence
 * numbers), so a second process opening it gets `DatabaseInUseError` instead of
 * sharing it (owner-file.ts says how, and why not SQLite's own exclusive lock).
 */
import { type Event as AdkEvent, DatabaseSessionService } from '@google/adk';
import type { MikroORM } from '@mikro-orm/core';
import { appendToAdk, appendToAdkSql, eventColumnOf } from './adk-tables.js';
import { bound, type Coordinator, localCoordinator, POOL_SIZE, postgresCoordinator } from './coordination.js';
import { ownFile } from './owner-file.js';

export interface DatabaseOptions {
  /** `postgres://...`: Postgres. Otherwise `file` (libsql, embedded). */
  url?: string;
  /** The libsql file; default `sync.db` in the working directory. */
  file?: string;
}

/** A raw query on the service's connection; `?` placeholders on every driver. */
export type Sql = (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

/** Which of ADK's stored events to rewrite, and how (`undefined`: leave it as it is). */
export interface EventRewrite extends SessionKey {
  ids: string[];
  rewrite: (event: AdkEvent) => AdkEvent | undefined;
}

export interface Database {
  sessions: DatabaseSessionService;
  /** Outside any transaction: reads that need no lock. */
  sql: Sql;
  /** Locks and commits (writes of the log and ADK's rows go through its sections' `atomic`). */
  coordinator: Coordinator;
  /**
   * Appends `events` (timestamps above the session's) to a session of ADK's tables in one
   * transaction: what ADK's `appendEvent` writes for each in turn (the event row, or a rewrite of
   * the row of its id; its state delta in the session's, user's and app's state, `temp:` keys left
   * out; the session's update time; nothing of a partial event), in one commit instead of one per
   * event. The server itself appends inside a section's `atomic`, with the log's rows.
   */
  appendEvents(key: SessionKey, events: AdkEvent[]): Promise<void>;
  dialect: 'postgres' | 'libsql';
  close(): Promise<void>;
}

export { DatabaseInUseError } from './owner-file.js';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const postgres = options.url !== undefined && /^postgres(ql)?:\/\//.test(options.url);
  let sessions: DatabaseSessionService;
  if (postgres) {
    const { PostgreSqlDriver } = await import('@mikro-orm/postgresql');
    // Sized from the coordinator's bounds: MikroORM's default of 10 is less than they can hold at once.
    sessions = new DatabaseSessionService({
      driver: PostgreSqlDriver,
      clientUrl: options.url,
      pool: { max: POOL_SIZE },
    });
  } else {
    if (options.url !== undefined)
      throw new Error(`unsupported DATABASE_URL (postgres:// only): ${redact(options.url)}`);
    const { LibSqlDriver } = await import('@mikro-orm/libsql');
    sessions = new DatabaseSessionService({ driver: LibSqlDriver, dbName: options.file ?? 'sync.db' });
  }
  // Before ADK's init touches the file: a second process must not even update the schema under the first.
  const owner = postgres ? undefined : ownFile(options.file ?? 'sync.db');
  // ADK 2.0's service has no close() and keeps its ORM on a property it does not declare.
  const ormOf = () => (sessions as unknown as { orm: MikroORM }).orm;
  const sqlOf = (orm: MikroORM): Sql => {
    const connection = orm.em.getConnection();
    return (query, params = []) => connection.execute(query, params, 'all');
  };
  const prepare = async () => {
    await sessions.init();
    const sql = sqlOf(ormOf());
    // WAL: one sync per commit instead of a rollback journal's several (measured: about half the time per append).
    if (!postgres) await sql('PRAGMA journal_mode=WAL');
    for (const statement of CHANGE_LOG) await sql(statement);
  };
  try {
    await (options.url !== undefined && postgres ? underSchemaLock(options.url, prepare) : prepare());
  } catch (error) {
    // A failed start lets go of what it took: the file for a retry, the ORM's connections (init may have made it).
    try {
      await (ormOf() as MikroORM | undefined)?.close().catch(() => {});
    } finally {
      owner?.release();
    }
    throw error;
  }
  const orm = ormOf();
  const sql = sqlOf(orm);
  const eventColumn = eventColumnOf(orm);
  return {
    sessions,
    sql,
    coordinator: postgres ? postgresCoordinator(orm, eventColumn) : localCoordinator(orm, sql),
    appendEvents: postgres
      ? (key, events) => orm.em.fork().transactional((em) => appendToAdkSql(bound(em), eventColumn, key, events))
      : (key, events) => orm.em.fork().transactional((em) => appendToAdk(em, key, events)),
    dialect: postgres ? 'postgres' : 'libsql',
    async close() {
      try {
        await orm.close();
      } finally {
        owner?.release();
      }
    },
  };
}

/**
 * One row per change a user's devices must hear, `seq` dense per (app, user)
 * and assigned under the user's lock (coordination.ts), so a cursor never skips a
 * row committed late. `pos` is the event's position in its session (0 for a
 * creation); `data` is the event or initial state as JSON, so a pull reads
 * this table alone. Also an index of ADK's `events` that ADK lacks (ADK minds nothing added).
 */
const CHANGE_LOG = [
  `CREATE TABLE IF NOT EXISTS sync_changes (
    app_name varchar(191) NOT NULL,
    user_id varchar(191) NOT NULL,
    seq bigint NOT NULL,
    kind varchar(8) NOT NULL,
    session_id varchar(191) NOT NULL,
    pos bigint NOT NULL,
    event_id varchar(191),
    ts bigint NOT NULL,
    data text NOT NULL,
    PRIMARY KEY (app_name, user_id, seq)
  )`,
  'CREATE INDEX IF NOT EXISTS sync_changes_session ON sync_changes (app_name, user_id, session_id, seq)',
  // ADK's events key starts with the event id, so reads by user and session (ADK's own, and the
  // server's comparison of the log with ADK's tables every few seconds) would scan the table.
  'CREATE INDEX IF NOT EXISTS sync_events_session ON events (app_name, user_id, session_id)',
];

/**
 * Runs `work` (creating or updating the tables) while no other server process does: on an empty
 * database, processes started at once each created ADK's tables and all but one failed on the
 * duplicate. A transaction-scoped advisory lock on a connection of its own, so that it falls
 * however the start ends. A database that does not exist yet (ADK's init creates it) cannot be
 * locked before it exists: then unlocked, as before.
 */
async function underSchemaLock(url: string, work: () => Promise<void>): Promise<void> {
  const { knex } = await import('@mikro-orm/postgresql');
  const guard = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    let locked = false;
    try {
      await guard.transaction(async (trx) => {
        await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [SCHEMA_LOCK]);
        locked = true;
        await work();
      });
    } catch (error) {
      if (locked || (error as { code?: unknown }).code !== MISSING_DATABASE) throw error;
      await work();
    }
  } finally {
    await guard.destroy();
  }
}

const SCHEMA_LOCK = 'sync-server schema';
/** Postgres's `invalid_catalog_name`: the database in the URL does not exist. */
const MISSING_DATABASE = '3D000';

const redact = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');
