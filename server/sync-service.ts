/**
 * The server's sync rules over ADK's `DatabaseSessionService` and the change
 * log. The server orders each session: a push lands only after the session's
 * head, each event stamped strictly later than the one before it so ADK's own
 * readers (which order by timestamp) see the order the devices see.
 *
 * Locks (coordination.ts: in this process on libsql, in the database on
 * Postgres, so any number of processes share one): a session's lock is held by
 * a push and by a server-side agent run (`runExclusive`), so the two never
 * interleave; a user's lock is held by every change-log write, so sequence
 * numbers are handed out and committed in order. Session lock first, then user
 * lock. A push's, an erasure's and a catch-up's writes to ADK's rows and to the
 * log are one commit; a change is announced to every process's change streams
 * after it.
 */
import type { Event as AdkEvent, DatabaseSessionService } from '@google/adk';
import { withoutTemp } from '../src/core/state.js';
import { erasedForm, inEffect, isErased } from '../src/sessions/erased.js';
import type { Change, Erasure, Placed, Positioned } from '../src/sync/wire.js';
import type { Event } from '../src/types.js';
import { AdkComparison } from './adk-comparison.js';
import { discover, RECHECK_MS } from './catch-up.js';
import type { Coordinator, Section, Writer } from './coordination.js';
import type { Database } from './database.js';
import { lockKey } from './locks.js';
import { ChangeLog, type NewRow, type UserKey } from './log.js';
import { parseNotice } from './notices.js';
import { stamp } from './stamp.js';
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
  private readonly coordinator: Coordinator;
  /** Reads that need no lock: a cursor only moves past rows that are committed. */
  private readonly reads: ChangeLog;
  /** Finds writes around the server at a cost bounded by what changed (see `caughtUp`). */
  private readonly comparison: AdkComparison;
  private readonly reconciled = new Set<string>();
  /** When each user's log was last compared with ADK's tables (see `caughtUp`), epoch ms. */
  private readonly checked = new Map<string, number>();
  /** Users whose comparison with ADK's tables is running (`caughtUp`). */
  private readonly comparing = new Set<string>();
  /** Per user with an open change stream here: the timer that compares again every `RECHECK_MS`. */
  private readonly rechecks = new Map<string, ReturnType<typeof setInterval>>();
  private readonly listeners = new Map<string, Set<Poke>>();
  private notices: { close(): Promise<void> } | undefined;

  constructor(readonly database: Database) {
    this.sessions = database.sessions;
    this.coordinator = database.coordinator;
    this.reads = new ChangeLog(database.sql);
    this.comparison = new AdkComparison(database.sql);
  }

  /** Starts hearing the changes other server processes make (Postgres); `close` stops it. */
  async listen(): Promise<void> {
    this.notices ??= await this.coordinator.listen(
      (payload) => {
        const notice = parseNotice(payload);
        // Another writer's payload on the channel is no poke of ours (and must not throw in the driver's handler).
        if (notice) this.poke(notice.user, notice.cursor);
      },
      () => void this.pokeAll(),
    );
  }

  async close(): Promise<void> {
    for (const timer of this.rechecks.values()) clearInterval(timer);
    this.rechecks.clear();
    await this.notices?.close();
    this.notices = undefined;
  }

  /** Appends `events` after position `after`; see `PushResult`. Idempotent by event id. */
  push(user: UserKey, sessionId: string, after: number, events: Event[]): Promise<PushResult> {
    return this.locked(user, sessionId, async (section, done): Promise<PushResult> => {
      const log = new ChangeLog(section.sql);
      const head = await log.head(user, sessionId);
      if (!head) return { status: 'not-found' };
      if (after > head.pos) return { status: 'ahead', head: head.pos };
      const ids = events.map((e) => e.id);
      const known = await log.placed(user, sessionId, head, ids);
      if (after < head.pos) {
        const tail = await log.eventsAfter(user, sessionId, head, after);
        // A replay of a push whose answer was lost finds only its own events past `after`.
        if (tail.some((t) => !known.has(t.event.id))) return { status: 'conflict', head: head.pos, events: tail };
      }
      const fresh = events.filter((e, i) => !known.has(e.id) && ids.indexOf(e.id) === i);
      const { rows, forAdk } = stamp(sessionId, head, fresh);
      const placed = new Map(known);
      for (const r of rows) placed.set(r.eventId as string, { pos: r.pos, ts: r.ts });
      if (rows.length > 0) {
        await section.atomic(async (w) => {
          if (forAdk.length > 0) await w.appendEvents({ ...user, sessionId }, forAdk);
          await this.record(user, w, rows, done);
        });
      }
      return {
        status: 'accepted',
        head: head.pos + rows.length,
        placed: ids.map((id) => {
          const p = placed.get(id) as { pos: number; ts: number };
          return { id, pos: p.pos, timestamp: p.ts };
        }),
      };
    });
  }

  /** Creates a session; `exists` when the id is taken (by this device's earlier try or another's). */
  create(user: UserKey, sessionId: string, state: Record<string, unknown>): Promise<'created' | 'exists'> {
    return this.locked(user, sessionId, async (section, done) => {
      if (await new ChangeLog(section.sql).head(user, sessionId)) return 'exists';
      const kept = withoutTemp(state);
      // An earlier try whose process died between ADK's commit and the log's: ADK has it, the log does not.
      if (!(await this.sessions.getSession({ ...user, sessionId }))) {
        await this.sessions.createSession({ ...user, sessionId, state: kept });
      }
      const row: NewRow = { kind: 'created', sessionId, pos: 0, eventId: null, ts: Date.now(), data: kept };
      await section.atomic((w) => this.record(user, w, [row], done));
      return 'created';
    });
  }

  /** Deletes a session; deleting one that does not exist is not an error (a replay). */
  remove(user: UserKey, sessionId: string): Promise<void> {
    return this.locked(user, sessionId, async (section, done) => {
      const head = await new ChangeLog(section.sql).head(user, sessionId);
      await this.sessions.deleteSession({ ...user, sessionId });
      if (head) {
        const row: NewRow = { kind: 'deleted', sessionId, pos: head.pos, eventId: null, ts: Date.now(), data: {} };
        await section.atomic((w) => this.record(user, w, [row], done));
      }
    });
  }

  /**
   * Erases the session's events `erasures` names in the server's copies (ADK's table and the log),
   * by the rule devices erase by (`erasedForm`, each at its `at`), and logs one `erased` change for
   * those not erased before; ids the session lacks are passed over. Each keeps of its state delta
   * what the erasure names with the value the original wrote (`inEffect`): a device decides which
   * writes were still in effect, but cannot add one. Resolves that count. The change and both
   * rewrites are one commit: a retry after a crash finds all of it done or none.
   */
  erase(user: UserKey, sessionId: string, erasures: Erasure[]): Promise<number | 'not-found'> {
    return this.locked(user, sessionId, async (section, done) => {
      const head = await new ChangeLog(section.sql).head(user, sessionId);
      if (!head) return 'not-found';
      const named = new Map(erasures.map((e) => [e.id, e]));
      const erasure = (event: Event): Erasure => {
        const { at, stateDelta } = named.get(event.id) as Erasure;
        return { id: event.id, at, stateDelta: inEffect(event.actions?.stateDelta, stateDelta ?? {}) };
      };
      const erase = (event: Event, { at, stateDelta }: Erasure = erasure(event)) =>
        erasedForm(event, at, stateDelta ?? {});
      const logged = await new ChangeLog(section.sql).logged(user, sessionId, head, [...named.keys()]);
      const fresh = logged.filter((r) => !isErased(r.event)).map((r) => ({ ...r, erasure: erasure(r.event) }));
      return section.atomic(async (w) => {
        if (fresh.length > 0) {
          const data = { erasures: fresh.map((r) => r.erasure) };
          // Where the session's head was: an erasure moves no event, and the next push stamps after it.
          const row: NewRow = { kind: 'erased', sessionId, pos: head.pos, eventId: null, ts: head.ts, data };
          await this.record(user, w, [row], done);
          await new ChangeLog(w.sql).rewrite(
            user,
            fresh.map((r) => ({ seq: r.seq, event: erase(r.event, r.erasure) })),
          );
        }
        await w.rewriteEvents({
          ...user,
          sessionId,
          ids: logged.map((r) => r.event.id),
          rewrite: (event) => (isErased(event) ? undefined : (erase(event as Event) as unknown as AdkEvent)),
        });
        return fresh.length;
      });
    });
  }

  /** The user's changes after `cursor`, at most `limit`, with the shared state as it is now (see `ChangeLog.changes`). */
  async pull(user: UserKey, cursor: number, limit: number, erasures = true): Promise<PullResult> {
    await this.caughtUp(user);
    const changes = await this.reads.changes(user, cursor, limit + 1, erasures);
    const more = changes.length > limit;
    if (more) changes.pop();
    const shared = await this.reads.sharedState(user);
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
   * the session, against every process: devices' pushes for it wait. Afterwards
   * the events `work` appended are logged and devices poked, whether it failed or not.
   */
  async runExclusive<T>(user: UserKey, sessionId: string, work: () => Promise<T>): Promise<T> {
    const done = { cursor: 0 };
    const outcome = await this.coordinator.run(
      sessionLock(user, sessionId),
      async (section) => {
        const startedAt = Date.now();
        let result: { value: T } | { error: unknown };
        try {
          result = { value: await work() };
        } catch (error) {
          // Not thrown in here: on Postgres that would roll back the logging of what `work` wrote.
          result = { error };
        }
        await this.underUser(user, section, done, async () => {
          const rows = await discover(this.sessions, user, new ChangeLog(section.sql), sessionId, true, startedAt);
          if (rows.length > 0) await section.atomic((w) => this.record(user, w, rows, done));
        });
        return result;
      },
      { long: true },
    );
    this.settled(user, done);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** Calls `poke` with the new cursor after every change of the user's. Returns the unsubscribe function. */
  subscribe(user: UserKey, poke: Poke): () => void {
    const key = userLock(user);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(poke);
    if (!this.rechecks.has(key)) {
      const timer = setInterval(() => void this.caughtUp(user).catch(() => {}), RECHECK_MS);
      timer.unref?.();
      this.rechecks.set(key, timer);
    }
    return () => {
      set.delete(poke);
      if (set.size > 0) return;
      this.listeners.delete(key);
      clearInterval(this.rechecks.get(key));
      this.rechecks.delete(key);
    };
  }

  /**
   * The user's newest cursor, after the same catch-up pushes and pulls run:
   * on the first use of the user in this process, events ADK's tables hold and
   * the log does not (a Runner that wrote while the server was stopped) are
   * logged first. The change stream announces this, so a device that reconnects
   * after a restart hears of those events at once, not on its next round.
   */
  async cursor(user: UserKey): Promise<number> {
    await this.caughtUp(user);
    return this.reads.cursor(user);
  }

  /**
   * The first use of a user in this process catches the log up with ADK's tables (see `underUser`)
   * before answering. After that, at most every `RECHECK_MS`, the log's sessions and event counts
   * are compared with ADK's beside the request, not in its way (`AdkComparison`: a full
   * comparison reads all of the user's rows, seconds for a large user), one comparison per user at
   * a time; a difference catches up again and pokes the user's streams: writers that reach ADK's
   * tables around the server (ADK's dev UI, a Runner not run through `runExclusive`) are heard on a
   * pull after it, and by open change streams within about `RECHECK_MS`.
   */
  private async caughtUp(user: UserKey): Promise<void> {
    const key = userLock(user);
    if (!this.reconciled.has(key)) {
      await this.locked(user, undefined, async () => {});
      this.checked.set(key, Date.now());
      return;
    }
    if (Date.now() - (this.checked.get(key) ?? 0) < RECHECK_MS || this.comparing.has(key)) return;
    this.checked.set(key, Date.now());
    this.comparing.add(key);
    void this.compare(user)
      .catch(() => {})
      .finally(() => this.comparing.delete(key));
  }

  private async compare(user: UserKey): Promise<void> {
    if (!(await this.comparison.differs(user))) return;
    this.reconciled.delete(userLock(user));
    await this.locked(user, undefined, async () => {});
  }

  /** `work` under the session's lock (none: `undefined`) and the user's; pokes after the commit. */
  private async locked<T>(
    user: UserKey,
    sessionId: string | undefined,
    work: (section: Section, done: { cursor: number }) => Promise<T>,
  ): Promise<T> {
    const done = { cursor: 0 };
    const key = sessionId === undefined ? undefined : sessionLock(user, sessionId);
    const result = await this.coordinator.run(
      key,
      (section) => this.underUser(user, section, done, () => work(section, done)),
      { user: userLock(user) },
    );
    this.settled(user, done);
    return result;
  }

  /**
   * Under the user's lock; on the first use of a user in this process, first
   * logs what ADK holds and the log does not: writers that went to ADK directly,
   * or (before pushes were one commit) a crash between ADK's commit and the log's.
   */
  private underUser<T>(user: UserKey, section: Section, done: { cursor: number }, work: () => Promise<T>): Promise<T> {
    return section.underUser(userLock(user), async () => {
      if (!this.reconciled.has(userLock(user))) await this.reconcile(user, section, done);
      return work();
    });
  }

  /** After a section's commit: the user counts as caught up, and its listeners hear the new cursor. */
  private settled(user: UserKey, done: { cursor: number }): void {
    this.reconciled.add(userLock(user));
    if (done.cursor > 0) this.poke(user, done.cursor);
  }

  private async reconcile(user: UserKey, section: Section, done: { cursor: number }): Promise<void> {
    const log = new ChangeLog(section.sql);
    const live = await log.livePositions(user);
    const { sessions } = await this.sessions.listSessions(user);
    const rows: NewRow[] = [];
    const inAdk = new Set(sessions.map((s) => s.id));
    for (const id of live.keys()) {
      if (!inAdk.has(id))
        rows.push({ kind: 'deleted', sessionId: id, pos: 0, eventId: null, ts: Date.now(), data: {} });
    }
    for (const s of sessions) {
      if (!live.has(s.id)) {
        rows.push({ kind: 'created', sessionId: s.id, pos: 0, eventId: null, ts: s.lastUpdateTime, data: s.state });
      }
      rows.push(...(await discover(this.sessions, user, log, s.id, live.has(s.id))));
    }
    if (rows.length > 0) await section.atomic((w) => this.record(user, w, rows, done));
  }

  /** Logs `rows` in `w`'s commit and announces it to every process; `done` keeps the cursor for this one's pokes. */
  private async record(user: UserKey, w: Writer, rows: NewRow[], done: { cursor: number }): Promise<void> {
    done.cursor = await new ChangeLog(w.sql).append(user, rows, w.channel);
  }

  private poke(user: UserKey, cursor: number): void {
    for (const poke of this.listeners.get(userLock(user)) ?? []) poke(cursor);
  }

  /** Every listened-to user's cursor, as after a lost connection nobody knows what was missed. */
  private async pokeAll(): Promise<void> {
    for (const key of this.listeners.keys()) {
      const [appName, userId] = JSON.parse(key) as [string, string];
      const user = { appName, userId };
      this.poke(user, await this.reads.cursor(user).catch(() => 0));
    }
  }
}

const userLock = (user: UserKey): string => lockKey(user.appName, user.userId);
const sessionLock = (user: UserKey, sessionId: string): string => lockKey(user.appName, user.userId, sessionId);
