/**
 * The device's sync loop, run where the store engine runs (the worker, or
 * in-thread). A round pushes what is pending, then pulls the user's change
 * feed (what it exchanges: exchange.ts). Rounds run one at a time: on demand, after local
 * changes (push), on a server poke (SSE), every `intervalMs`, and after a failure
 * with exponential backoff. Everything a round needs is re-read from the
 * database, so a crash or reload at any point only repeats work.
 */

import { SyncError } from '../core/errors.js';
import { ChangeFeed } from '../database/changes.js';
import { Exchange, type SyncHost } from './exchange.js';
import type { UserKey } from './local.js';
import type { SyncConflictPolicy } from './policy.js';
import { counts } from './round-steps.js';
import { initialStatus, type SyncStatus, type SyncStatusListener } from './status.js';
import { SyncTransport } from './transport.js';

export type { SyncHost } from './exchange.js';

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
  private readonly exchange: Exchange;
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
    this.exchange = new Exchange(host, this.transport, this.user, options.conflict);
  }

  /** Starts the schedule: a round now, then as described above. */
  start(): this {
    this.feed = new ChangeFeed(this.host.dbName);
    // Drafts never sync: only the events they become.
    this.unsubscribe = this.feed.subscribe(this.user, (change) => {
      if (change.type !== 'drafted') this.schedulePush();
    });
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
        const pushed = await this.exchange.push(refused);
        // A fork or an adopted session leaves new pending work for another pass.
        again = pushed.deferred || pushed.conflicted;
        if (pull || pushed.conflicted || pushed.deferred) {
          this.knownCursor = Math.max(this.knownCursor, await this.exchange.pull());
          pull = false;
        }
      }
      const scan = await this.exchange.scan();
      this.failures = 0;
      this.update({ phase: 'idle', online: true, lastSyncAt: Date.now(), lastError: null, refused, ...counts(scan) });
      this.schedule(this.options.intervalMs ?? 30_000);
    } catch (error) {
      const failure = error instanceof SyncError ? error : new SyncError(`sync failed: ${String(error)}`, 'server', 0);
      this.failures += 1;
      const scan = await this.exchange.scan().catch(() => undefined);
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
