/**
 * The server's sync rules over ADK's `DatabaseSessionService` and the change
 * log. The server orders each session: a push lands only after the session's
 * head, each event stamped strictly later than the one before it so ADK's own
 * readers (which order by timestamp) see the order the devices see.
 *
 * Locks: a session's lock is held by a push and by a server-side agent run
 * (`runExclusive`), so the two never interleave; a user's lock is held by every
 * change-log write, so sequence numbers are handed out and committed in order.
 * Session lock first, then user lock.
 */
import type { Event as AdkEvent, DatabaseSessionService } from '@google/adk';
import { withoutTemp } from '../src/core/state.js';
import { erasedForm, isErased } from '../src/sessions/erased.js';
import type { Change, Erasure, Placed, Positioned } from '../src/sync/wire.js';
import type { Event } from '../src/types.js';
import type { Database } from './database.js';
import { KeyedLock, lockKey } from './locks.js';
import { ChangeLog, type Head, type NewRow, type UserKey } from './log.js';

export type PushResult =
  | { status: 'accepted'; head: number; placed: Placed[] }
  | { status: 'conflict'; head: number; events: Positioned[] }
  | { status: 'not-found' }
  | { status: 'ahead'; head: number };

export interface PullResult {
  changes: Change[];
  cursor: number;
  more: boolean;
  appState: Record<string, unknown>;
  userState: Record<string, unknown>;
}

type Poke = (cursor: number) => void;

export class SyncService {
  readonly sessions: DatabaseSessionService;
  private readonly log: ChangeLog;
  private readonly sessionLocks = new KeyedLock();
  private readonly userLocks = new KeyedLock();
  private readonly reconciled = new Set<string>();
  private readonly listeners = new Map<string, Set<Poke>>();

  constructor(readonly database: Database) {
    this.sessions = database.sessions;
    this.log = new ChangeLog(database.sql);
  }

  /** Appends `events` after position `after`; see `PushResult`. Idempotent by event id. */
  push(user: UserKey, sessionId: string, after: number, events: Event[]): Promise<PushResult> {
    return this.sessionLocks.run(sessionLock(user, sessionId), () =>
      this.underUser(user, async () => {
        const head = await this.log.head(user, sessionId);
        if (!head) return { status: 'not-found' };
        if (after > head.pos) return { status: 'ahead', head: head.pos };
        const ids = events.map((e) => e.id);
        const known = await this.log.placed(user, sessionId, head, ids);
        if (after < head.pos) {
          const tail = await this.log.eventsAfter(user, sessionId, head, after);
          // A replay of a push whose answer was lost finds only its own events past `after`.
          if (tail.some((t) => !known.has(t.event.id))) return { status: 'conflict', head: head.pos, events: tail };
        }
        const fresh = events.filter((e, i) => !known.has(e.id) && ids.indexOf(e.id) === i);
        const rows = await this.appendToAdk(user, sessionId, head, fresh);
        const placed = new Map(known);
        for (const r of rows) placed.set(r.eventId as string, { pos: r.pos, ts: r.ts });
        const newHead = rows.length > 0 ? await this.record(user, rows, head.pos + rows.length) : head.pos;
        return {
          status: 'accepted',
          head: newHead,
          placed: ids.map((id) => {
            const p = placed.get(id) as { pos: number; ts: number };
            return { id, pos: p.pos, timestamp: p.ts };
          }),
        };
      }),
    );
  }

  /** Creates a session; `exists` when the id is taken (by this device's earlier try or another's). */
  create(user: UserKey, sessionId: string, state: Record<string, unknown>): Promise<'created' | 'exists'> {
    return this.sessionLocks.run(sessionLock(user, sessionId), () =>
      this.underUser(user, async () => {
        if (await this.log.head(user, sessionId)) return 'exists';
        const kept = withoutTemp(state);
        await this.sessions.createSession({ ...user, sessionId, state: kept });
        await this.record(user, [{ kind: 'created', sessionId, pos: 0, eventId: null, ts: Date.now(), data: kept }]);
        return 'created';
      }),
    );
  }

  /** Deletes a session; deleting one that does not exist is not an error (a replay). */
  remove(user: UserKey, sessionId: string): Promise<void> {
    return this.sessionLocks.run(sessionLock(user, sessionId), () =>
      this.underUser(user, async () => {
        const head = await this.log.head(user, sessionId);
        await this.sessions.deleteSession({ ...user, sessionId });
        if (head) {
          await this.record(user, [
            { kind: 'deleted', sessionId, pos: head.pos, eventId: null, ts: Date.now(), data: {} },
          ]);
        }
      }),
    );
  }

  /**
   * Erases the session's events `erasures` names in the server's copies (ADK's table and the log),
   * by the rule devices erase by (`erasedForm`, each at its `at`), and logs one `erased` change for
   * those not erased before; ids the session lacks are passed over. Resolves that count. The change
   * is logged first: after a crash, the device's retry finds the copies unerased and does it all again.
   */
  erase(user: UserKey, sessionId: string, erasures: Erasure[]): Promise<number | 'not-found'> {
    return this.sessionLocks.run(sessionLock(user, sessionId), () =>
      this.underUser(user, async () => {
        const head = await this.log.head(user, sessionId);
        if (!head) return 'not-found';
        const at = new Map(erasures.map((e) => [e.id, e.at]));
        const erase = (event: Event) => erasedForm(event, at.get(event.id) as number);
        const logged = await this.log.logged(user, sessionId, head, [...at.keys()]);
        const fresh = logged.filter((r) => !isErased(r.event));
        if (fresh.length > 0) {
          const data = { erasures: fresh.map((r) => ({ id: r.event.id, at: at.get(r.event.id) as number })) };
          // Where the session's head was: an erasure moves no event, and the next push stamps after it.
          await this.record(user, [{ kind: 'erased', sessionId, pos: head.pos, eventId: null, ts: head.ts, data }]);
          await this.log.rewrite(
            user,
            fresh.map((r) => ({ seq: r.seq, event: erase(r.event) })),
          );
        }
        await this.database.rewriteEvents({
          ...user,
          sessionId,
          ids: logged.map((r) => r.event.id),
          rewrite: (event) => (isErased(event) ? undefined : (erase(event as Event) as unknown as AdkEvent)),
        });
        return fresh.length;
      }),
    );
  }

  /** The user's changes after `cursor`, at most `limit`, with the shared state as it is now (see `ChangeLog.changes`). */
  async pull(user: UserKey, cursor: number, limit: number, erasures = true): Promise<PullResult> {
    await this.underUser(user, async () => {});
    const changes = await this.log.changes(user, cursor, limit + 1, erasures);
    const more = changes.length > limit;
    if (more) changes.pop();
    const shared = await this.log.sharedState(user);
    return {
      changes,
      cursor: changes.at(-1)?.seq ?? cursor,
      more,
      appState: shared.app,
      userState: shared.user,
    };
  }

  /**
   * Runs `work` (a server-side ADK agent turn on `this.sessions`) while holding
   * the session: devices' pushes for it wait. Afterwards the events `work`
   * appended are logged and devices poked.
   */
  runExclusive<T>(user: UserKey, sessionId: string, work: () => Promise<T>): Promise<T> {
    return this.sessionLocks.run(sessionLock(user, sessionId), async () => {
      const startedAt = Date.now();
      try {
        return await work();
      } finally {
        await this.underUser(user, async () => {
          const rows = await this.discover(user, sessionId, true, startedAt);
          if (rows.length > 0) await this.record(user, rows);
        });
      }
    });
  }

  /** Calls `poke` with the new cursor after every change of the user's. Returns the unsubscribe function. */
  subscribe(user: UserKey, poke: Poke): () => void {
    const key = lockKey(user.appName, user.userId);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(poke);
    return () => {
      set.delete(poke);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /**
   * The user's newest cursor, after the same catch-up pushes and pulls run:
   * on the first use of the user in this process, events ADK's tables hold and
   * the log does not (a Runner that wrote while the server was stopped) are
   * logged first. The change stream announces this, so a device that reconnects
   * after a restart hears of those events at once, not on its next round.
   */
  cursor(user: UserKey): Promise<number> {
    return this.underUser(user, () => this.log.cursor(user));
  }

  /**
   * Under the user's lock; on the first use of a user in this process, first
   * logs what ADK holds and the log does not: a crash between ADK's commit and
   * the log's, or writers that went to ADK directly.
   */
  private underUser<T>(user: UserKey, work: () => Promise<T>): Promise<T> {
    const key = lockKey(user.appName, user.userId);
    return this.userLocks.run(key, async () => {
      if (!this.reconciled.has(key)) {
        await this.reconcile(user);
        this.reconciled.add(key);
      }
      return work();
    });
  }

  private async reconcile(user: UserKey): Promise<void> {
    const live = await this.log.liveSessions(user);
    const { sessions } = await this.sessions.listSessions(user);
    const rows: NewRow[] = [];
    const inAdk = new Set(sessions.map((s) => s.id));
    for (const id of live) {
      if (!inAdk.has(id))
        rows.push({ kind: 'deleted', sessionId: id, pos: 0, eventId: null, ts: Date.now(), data: {} });
    }
    for (const s of sessions) {
      if (!live.has(s.id)) {
        rows.push({ kind: 'created', sessionId: s.id, pos: 0, eventId: null, ts: s.lastUpdateTime, data: s.state });
      }
      rows.push(...(await this.discover(user, s.id, live.has(s.id))));
    }
    if (rows.length > 0) await this.record(user, rows);
  }

  /**
   * Rows for the events ADK holds past the log's head of the session (all of
   * them for a session new to the log). ADK's `afterTimestamp` is strict and
   * writers share milliseconds, so it reads from below the head (and below
   * `since`, when the writer started) and drops what the log already holds by id.
   */
  private async discover(user: UserKey, sessionId: string, logged = true, since = Infinity): Promise<NewRow[]> {
    const head = logged ? await this.log.head(user, sessionId) : undefined;
    const session = await this.sessions.getSession({
      ...user,
      sessionId,
      ...(head ? { config: { afterTimestamp: Math.min(head.ts, since) - 1 } } : {}),
    });
    if (!session) return [];
    const known = head
      ? await this.log.placed(
          user,
          sessionId,
          head,
          session.events.map((e) => e.id),
        )
      : new Map();
    let pos = head?.pos ?? 0;
    return session.events
      .filter((e) => !known.has(e.id) && !e.partial)
      .map((e) => {
        pos += 1;
        return { kind: 'event', sessionId, pos, eventId: e.id, ts: e.timestamp, data: e } satisfies NewRow;
      });
  }

  /** Writes `events` to ADK's tables in one transaction, each stamped strictly after its predecessor. */
  private async appendToAdk(user: UserKey, sessionId: string, head: Head, events: Event[]): Promise<NewRow[]> {
    let ts = head.ts;
    let pos = head.pos;
    const rows: NewRow[] = [];
    const forAdk: AdkEvent[] = [];
    for (const event of events) {
      ts = Math.max(Date.now(), ts + 1);
      pos += 1;
      const stamped = { ...event, timestamp: ts };
      // ADK's events table needs an invocation id; the devices keep the event as they sent it.
      forAdk.push({ ...stamped, invocationId: stamped.invocationId ?? '' } as unknown as AdkEvent);
      rows.push({ kind: 'event', sessionId, pos, eventId: event.id, ts, data: stamped });
    }
    if (forAdk.length > 0) await this.database.appendEvents({ ...user, sessionId }, forAdk);
    return rows;
  }

  /** Logs `rows`, then pokes the user's listeners. Resolves with `result`. */
  private async record<T>(user: UserKey, rows: NewRow[], result?: T): Promise<T> {
    const cursor = await this.log.append(user, rows);
    for (const poke of this.listeners.get(lockKey(user.appName, user.userId)) ?? []) poke(cursor);
    return result as T;
  }
}

const sessionLock = (user: UserKey, sessionId: string): string => lockKey(user.appName, user.userId, sessionId);
