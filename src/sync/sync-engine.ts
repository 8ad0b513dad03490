/**
 * The device's sync loop, run where the store engine runs (the worker, or
 * in-thread). A round pushes what is pending (deletions, creations, then each
 * session's events after its server position), then pulls the user's change
 * feed from the stored cursor. Rounds run one at a time: on demand, after local
 * changes (push), on a server poke (SSE), every `intervalMs`, and after a failure
 * with exponential backoff. Everything a round needs is re-read from the
 * database, so a crash or reload at any point only repeats work.
 */

import { SyncError } from '../core/errors.js';
import type { StoreChange } from '../database/changes.js';
import { ChangeFeed } from '../database/changes.js';
import type { Db } from '../database/idb/index.js';
import type { StoreSchema } from '../database/records/index.js';
import type { DeleteSessionRequest, Event } from '../types.js';
import { adoptCreated, integrate, type PendingScan, readPending, scanPending, type UserKey } from './local.js';
import { dropMark, localSharedWrites, markCreated, markOf, replaceShared, saveCursor } from './marks.js';
import { decide, type SyncConflictPolicy } from './policy.js';
import { counts, fitting, inOrder, refusable, SessionRefused } from './round-steps.js';
import { initialStatus, type SyncStatus, type SyncStatusListener } from './status.js';
import { SyncTransport } from './transport.js';
import { type Change, MAX_PUSH_EVENTS, type Positioned, type ServerLimits } from './wire.js';

/** What sync needs of the store: `StoreEngine` is one. */
export interface SyncHost {
  readonly dbName: string;
  transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T>;
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  announce(changes: readonly StoreChange[]): void;
}

/** What sync needs: the server, the user it syncs, and how it behaves. */
export interface SyncOptions {
  /** The sync server's base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The bearer token the server's `authenticate` accepts for this user. */
  token: string;
  /** The app whose sessions sync. */
  appName: string;
  /** The user whose sessions sync. */
  userId: string;
  /** What happens to pending events the server's overtook. Default `'rebase'`. */
  conflict?: SyncConflictPolicy;
  /** Listen to the server's change stream and pull at once on news. Default true. */
  live?: boolean;
  /** A full round at least this often. Default 30 s. */
  intervalMs?: number;
  /** Backoff after a failure: from `minMs`, doubling, to `maxMs`. Default 1 s to 60 s. */
  retry?: { minMs: number; maxMs: number };
  /** Push this long after a local change, so a burst goes in one round. Default 50 ms. */
  pushDelayMs?: number;
  /** `fetch` to use (tests, or an app's authenticated fetch). */
  fetch?: typeof fetch;
  /** A request without an answer for this long fails the round as `network` (then backoff). Default 30 s. */
  requestTimeoutMs?: number;
}

const MAX_ROUNDS = 4;

export class SyncEngine {
  readonly transport: SyncTransport;
  private readonly user: UserKey;
  private current: SyncStatus = initialStatus();
  private readonly listeners = new Set<SyncStatusListener>();
  private queue: Promise<unknown> = Promise.resolve();
  private next: Promise<SyncStatus> | undefined;
  private nextPullWanted = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pushTimer: ReturnType<typeof setTimeout> | undefined;
  private feed: ChangeFeed | undefined;
  private unsubscribe: (() => void) | undefined;
  private streamAbort: AbortController | undefined;
  private stopped = false;
  private knownCursor = 0;

  constructor(
    private readonly host: SyncHost,
    private readonly options: SyncOptions,
  ) {
    this.user = { appName: options.appName, userId: options.userId };
    this.transport = new SyncTransport(options);
  }

  /** Starts the schedule: a round now, then as described above. */
  start(): this {
    this.feed = new ChangeFeed(this.host.dbName);
    this.unsubscribe = this.feed.subscribe(this.user, () => this.schedulePush());
    if (this.options.live !== false) void this.listen();
    void this.syncNow();
    return this;
  }

  status(): SyncStatus {
    return structuredClone(this.current);
  }

  /** Calls `listener` with every new status. Returns the unsubscribe function. */
  onStatus(listener: SyncStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A full round (push, then pull), after the one running if any; requests made
   * meanwhile share one round. Resolves with the status after it; a failure is
   * in `lastError`, not a rejection.
   */
  syncNow(): Promise<SyncStatus> {
    return this.request(true);
  }

  /**
   * Stops the schedule and the stream; a round under way finishes. With
   * `reason`, the last status carries it as `lastError` (kind `refused`): why
   * this sync stopped when its users did not ask.
   */
  async stop(reason?: string): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.pushTimer);
    this.unsubscribe?.();
    this.feed?.close();
    this.streamAbort?.abort();
    await this.queue.catch(() => {});
    this.update({
      phase: 'stopped',
      ...(reason === undefined ? {} : { lastError: { message: reason, kind: 'refused', status: 0, at: Date.now() } }),
    });
  }

  private request(pull: boolean): Promise<SyncStatus> {
    if (pull) this.nextPullWanted = true;
    if (this.next) return this.next;
    const run = this.queue.then(() => {
      this.next = undefined;
      const wantPull = this.nextPullWanted;
      this.nextPullWanted = false;
      return this.round(wantPull);
    });
    this.next = run;
    this.queue = run.catch(() => {});
    return run;
  }

  private schedulePush(): void {
    if (this.stopped) return;
    clearTimeout(this.pushTimer);
    this.pushTimer = setTimeout(() => void this.request(false), this.options.pushDelayMs ?? 50);
  }

  private async round(pull: boolean): Promise<SyncStatus> {
    if (this.stopped) return this.status();
    this.update({ phase: 'syncing' });
    clearTimeout(this.timer);
    try {
      let rounds = 0;
      let again = true;
      const refused: SyncStatus['refused'] = {};
      while (again && rounds < MAX_ROUNDS) {
        rounds += 1;
        const pushed = await this.push(refused);
        // A fork or an adopted session leaves new pending work for another pass.
        again = pushed.deferred || pushed.conflicted;
        if (pull || pushed.conflicted || pushed.deferred) {
          await this.pull();
          pull = false;
        }
      }
      const scan = await this.scan();
      this.failures = 0;
      this.update({ phase: 'idle', online: true, lastSyncAt: Date.now(), lastError: null, refused, ...counts(scan) });
      this.schedule(this.options.intervalMs ?? 30_000);
    } catch (error) {
      const failure = error instanceof SyncError ? error : new SyncError(`sync failed: ${String(error)}`, 'server', 0);
      this.failures += 1;
      const scan = await this.scan().catch(() => undefined);
      this.update({
        phase: failure.kind === 'network' ? 'offline' : 'error',
        online: failure.kind !== 'network',
        lastError: { message: failure.message, kind: failure.kind, status: failure.status, at: Date.now() },
        ...(scan ? counts(scan) : {}),
      });
      const { minMs, maxMs } = this.options.retry ?? { minMs: 1000, maxMs: 60_000 };
      const backoff = Math.min(maxMs, minMs * 2 ** (this.failures - 1));
      this.schedule(backoff / 2 + Math.random() * (backoff / 2));
    }
    return this.status();
  }

  private schedule(ms: number): void {
    if (this.stopped || !this.feed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.syncNow(), ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private scan(): Promise<PendingScan> {
    return this.host.transact((db) => scanPending(db, this.user));
  }

  private key(sessionId: string): [string, string, string] {
    return [this.user.appName, this.user.userId, sessionId];
  }

  /**
   * Pushes deletions, creations and events. `deferred`: a session the server had already needs a pull first.
   * A session the server refuses is noted in `refused` and skipped; the others go on.
   */
  private async push(refused: SyncStatus['refused']): Promise<{ conflicted: boolean; deferred: boolean }> {
    const limits = await this.transport.limits();
    let scan = await this.scan();
    let deferred = false;
    let conflicted = false;
    for (const mark of scan.deletes) {
      await this.transport.remove(mark.id);
      await this.host.transact((db) => dropMark(db, this.key(mark.id), mark.uid));
    }
    const shared = scan.creates.length > 0 ? await this.host.transact((db) => localSharedWrites(db, this.user)) : {};
    for (const record of scan.creates) {
      // The creation also carries this device's unreported `app:`/`user:` writes: no event does.
      const state = { ...shared, ...record.state };
      const outcome = await refusable(record.id, refused, () => this.transport.create(record.id, state));
      if (outcome === undefined) continue;
      await this.host.transact((db) =>
        markCreated(db, this.key(record.id), record.uid, outcome === 'created' ? { state: record.state } : 'exists'),
      );
    }
    if (scan.deletes.length > 0 || scan.creates.length > 0) scan = await this.scan();
    for (const { record, mark } of scan.appends) {
      if (Object.hasOwn(refused, record.id)) continue;
      if (mark.awaitingCreated) {
        // The server's creation and events come with the pull; the local events then go after them.
        deferred = true;
        continue;
      }
      if (await refusable(record.id, refused, () => this.pushSession(record.id, limits))) conflicted = true;
    }
    return { conflicted, deferred };
  }

  /** Pushes one session's pending events until none are left; resolves true if the server's overtook some. */
  private async pushSession(sessionId: string, limits: ServerLimits): Promise<boolean> {
    const key = this.key(sessionId);
    let conflicted = false;
    // Accepted pushes always advance; conflicts are bounded so a busy session cannot hold the round.
    for (let conflicts = 0; conflicts < 8; ) {
      const pending = await this.host.transact((db) =>
        readPending(db, key, Math.min(MAX_PUSH_EVENTS, limits.maxPushEvents)),
      );
      if (!pending || pending.events.length === 0) return conflicted;
      const after = pending.mark.serverPos;
      const events = fitting(after, pending.events, limits.maxBodyBytes);
      if (events.length === 0) {
        const first = pending.events[0] as Event;
        throw new SessionRefused(
          sessionId,
          `event ${first.id} of session ${sessionId} is larger than the server accepts (${limits.maxBodyBytes} bytes a request)`,
          413,
        );
      }
      const answer = await this.transport.push(sessionId, after, events);
      if (answer.status === 'missing') return conflicted;
      if (answer.status === 'accepted') {
        await this.apply(key, { placed: answer.answer.placed });
        continue;
      }
      conflicted = true;
      conflicts += 1;
      await this.applyIncoming(sessionId, answer.events, events);
    }
    return conflicted;
  }

  private async applyIncoming(sessionId: string, incoming: Positioned[], pending?: Event[]): Promise<void> {
    const key = this.key(sessionId);
    let decision: 'rebase' | 'fork' | 'drop' = 'rebase';
    if (this.options.conflict !== undefined && this.options.conflict !== 'rebase') {
      const local = pending ?? (await this.host.transact((db) => readPending(db, key, MAX_PUSH_EVENTS)))?.events ?? [];
      const arrived = new Set(incoming.map((e) => e.event.id));
      const still = local.filter((e) => !arrived.has(e.id));
      if (still.length > 0) {
        decision = await decide(this.options.conflict, {
          ...this.user,
          sessionId,
          server: incoming.map((e) => e.event),
          pending: still,
        });
      }
    }
    const done = await this.apply(key, { incoming, decision });
    if (done.gap)
      throw new SyncError(`the server's events for session ${sessionId} did not continue this device's`, 'server', 0);
  }

  private async apply(key: [string, string, string], work: Parameters<typeof integrate>[2]) {
    const done = await this.host.transact((db) => integrate(db, key, work));
    this.host.announce(done.changes);
    return done;
  }

  /** Reads the feed from the stored cursor to its end, storing the cursor after each page. */
  private async pull(): Promise<void> {
    const scan = await this.scan();
    let cursor = scan.cursor?.cursor ?? 0;
    let resynced = false;
    for (;;) {
      const answer = await this.transport.pull(cursor);
      const gap = await this.applyChanges(inOrder(answer.changes, cursor));
      if (gap) {
        // The feed and a session's mark disagree (a bug, or a server restored from a backup):
        // read the whole feed again, once; every step of it is idempotent.
        if (resynced) throw new SyncError("the server's change feed does not continue this device's copy", 'server');
        resynced = true;
        cursor = 0;
        await this.host.transact((db) => saveCursor(db, this.user, 0, undefined));
        continue;
      }
      cursor = answer.cursor;
      this.knownCursor = Math.max(this.knownCursor, cursor);
      await this.host.transact((db) =>
        saveCursor(db, this.user, cursor, { app: answer.appState, user: answer.userState }),
      );
      if (!answer.more) {
        const after = await this.scan();
        if (after.creates.length === 0 && after.deletes.length === 0 && after.appends.length === 0) {
          await this.host.transact((db) => replaceShared(db, this.user, answer.appState, answer.userState));
        }
        return;
      }
    }
  }

  /** Applies a page of changes in order; consecutive events of one session in one transaction. Resolves true on a gap. */
  private async applyChanges(changes: Change[]): Promise<boolean> {
    let run: { sessionId: string; events: Positioned[] } | undefined;
    const flush = async (): Promise<boolean> => {
      if (!run) return false;
      const { sessionId, events } = run;
      run = undefined;
      try {
        await this.applyIncoming(sessionId, events);
        return false;
      } catch (error) {
        if (error instanceof SyncError) return true;
        throw error;
      }
    };
    for (const change of changes) {
      if (change.type === 'event') {
        if (run && run.sessionId !== change.sessionId && (await flush())) return true;
        run ??= { sessionId: change.sessionId, events: [] };
        run.events.push({ pos: change.pos, event: change.event });
        continue;
      }
      if (await flush()) return true;
      const key = this.key(change.sessionId);
      if (change.type === 'created') {
        this.host.announce(await this.host.transact((db) => adoptCreated(db, key, change.state)));
      } else {
        const { mark, current } = await this.host.transact((db) => markOf(db, key));
        if (mark && current) await this.host.deleteSession({ ...this.user, sessionId: change.sessionId });
        if (mark) await this.host.transact((db) => dropMark(db, key, mark.uid));
      }
    }
    return flush();
  }

  /** Keeps a change stream open while started; each poke past the known cursor starts a round. */
  private async listen(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      this.streamAbort = new AbortController();
      try {
        await this.transport.stream((cursor) => {
          failures = 0;
          if (cursor > this.knownCursor) void this.syncNow();
        }, this.streamAbort.signal);
      } catch {
        failures += 1;
      }
      if (this.stopped) return;
      const { minMs, maxMs } = this.options.retry ?? { minMs: 1000, maxMs: 60_000 };
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.min(maxMs, minMs * 2 ** Math.min(failures, 10)));
        (t as { unref?: () => void }).unref?.();
      });
    }
  }

  private update(patch: Partial<SyncStatus>): void {
    this.current = { ...this.current, ...patch };
    const snapshot = this.status();
    for (const listener of this.listeners) listener(snapshot);
  }
}
