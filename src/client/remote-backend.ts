/**
 * The page side of the boundary: the backend protocol over a Comlink proxy.
 * Comlink alone leaves a call pending forever if the worker dies; here every
 * call is tracked and rejected with `StoreClosedError` the moment the worker is
 * known to be gone (its life lock is granted to us, its port closes, a message
 * cannot be read) and with `TimeoutError` past the optional per-call timeout.
 */
import { type Endpoint, proxy, type Remote, releaseProxy, wrap } from 'comlink';
import { ARTIFACT_METHODS, type ArtifactBackend } from '../artifacts/protocol.js';
import { CloseSignal } from '../core/close-signal.js';
import {
  fromWireError,
  InvalidInputError,
  SessionStoreError,
  StorageError,
  StoreClosedError,
  TimeoutError,
} from '../core/errors.js';
import { MAX_BATCHES } from '../core/limits.js';
import type { MethodOf } from '../core/methods.js';
import { DRAFT_METHODS, type DraftBackend } from '../drafts/protocol.js';
import type { HelloResponse, HostApi, Result } from '../host/api.js';
import { MEMORY_METHODS, type MemoryBackend } from '../memory/protocol.js';
import { SEARCH_METHODS, type SearchBackend } from '../search/protocol.js';
import {
  type AppendBatch,
  type AppendOutcome,
  type Backend,
  type ImportBatch,
  type LoadedSession,
  SESSION_METHODS,
} from '../sessions/protocol.js';
import type { SyncStartOptions } from '../sync/protocol.js';
import type { SyncStatus } from '../sync/status.js';
import type { GetSessionRequest } from '../types.js';
import { cloned, EarlyReads } from './early-reads.js';
import type { StoreBackend } from './store.js';

export interface RemoteOptions {
  dbName?: string;
  timeoutMs?: number;
  /** Also close the store in the worker (its own worker, about to be terminated). */
  closeStoreOnClose?: boolean;
  /** Runs after the connection is released: terminate an owned worker, close a port. */
  onReleased?: () => void;
  /** The worker script's URL, when known: named (and probed) if the worker fails to start. */
  workerUrl?: string;
  /**
   * The database the worker serves, being opened for this page to read itself until the
   * worker answers (sessions/first-read.ts): given for the store's own worker, never for a port.
   */
  readEarly?: Promise<IDBDatabase | undefined>;
  /**
   * Starts a worker not started yet (./later-worker.ts): called when one is needed, that is after
   * the page's first read, at the first call only the worker serves, or once `readEarly` is done
   * if nothing was read. Without it the worker is taken to be running.
   */
  startWorker?: () => void;
}

type Watchable = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

interface Outgoing {
  batch: AppendBatch;
  resolve: (outcome: AppendOutcome) => void;
  reject: (error: unknown) => void;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the forwarded methods are made below, from their list
export class RemoteBackend implements StoreBackend {
  readonly hello: Promise<HelloResponse>;
  /** The worker's answer names the database: the client's change feed waits for it. */
  readonly dbName: Promise<string>;
  private started: Promise<void> | undefined;
  private readonly remote: Remote<HostApi>;
  private readonly pending = new Set<(error: Error) => void>();
  private readonly ended = new CloseSignal();
  private readonly stopWatching = new AbortController();
  private outbox: Outgoing[] | undefined;
  /** The calls the host serves, once it said hello; `undefined` before that or from a host that predates the list. */
  private served: Set<string> | undefined;
  /** The host turned out to lack `appendMany` (an older worker): each session's batch goes alone. */
  private oneByOne = false;
  /** The page's first reads, and the worker's start when it is started on demand. */
  private readonly early: EarlyReads;

  constructor(
    endpoint: Endpoint,
    private readonly options: RemoteOptions,
    watch: Watchable[],
  ) {
    this.remote = wrap<HostApi>(endpoint);
    // A worker its constructor refused (a cross-origin URL, no SharedWorker in a sandbox) is one that died.
    const url = options.workerUrl ? ` from ${options.workerUrl}` : '';
    this.early = new EarlyReads(options.readEarly, options.startWorker, (error) =>
      this.die(`the store worker could not be started${url}: ${String(error)}`),
    );
    const signal = this.stopWatching.signal;
    let greeted = false;
    for (const target of watch) {
      target.addEventListener('messageerror', () => this.die('a message from the store worker could not be read'), {
        signal,
      });
      target.addEventListener('close', () => this.die('the store worker closed its port'), { signal });
      target.addEventListener(
        'error',
        (event) => {
          // After hello, errors inside the worker are answered per call; before it, the worker never started.
          if (!greeted) {
            // Loaded only then: the words (and the probe) for a start that failed are not worth their bytes until one does.
            void import('./start-failure.js')
              .then(({ describeStartFailure }) => describeStartFailure(event, options.workerUrl))
              .then(
                (message) => this.die(message),
                () => this.die('the store worker failed to start'),
              );
          }
        },
        { signal },
      );
    }
    this.hello = this.call('hello', (r) => r.hello({ ...(options.dbName ? { dbName: options.dbName } : {}) }));
    this.early.greeted(this.hello);
    this.dbName = this.hello.then((h) => h.dbName);
    // Read by whoever asks for `ready`; a worker that never answers is reported there and by every call.
    this.dbName.catch(() => {});
    this.hello.then(
      (hello) => {
        greeted = true;
        if (hello.methods) this.served = new Set(hello.methods);
        // Learn at once when the store closes under us (another tab upgraded or deleted the database),
        // rather than from the next call. An older host without this method answers with an error: ignored.
        this.remote.whenClosed().then(
          (result) => {
            if (result.ok) this.die(result.value.message);
          },
          () => {},
        );
        const locks = (globalThis.navigator as Navigator | undefined)?.locks;
        if (hello.lockName && locks && !signal.aborted) {
          locks
            .request(hello.lockName, { signal }, () => this.die('the store worker stopped (crashed or terminated)'))
            .catch(() => {});
        }
      },
      () => {},
    );
  }

  /**
   * Resolves once the worker has answered the hello. One promise, its failure
   * marked handled: reading `ready` without awaiting it must not report an
   * unhandled rejection when the store closes before the worker answers.
   */
  get ready(): Promise<void> {
    if (!this.started) {
      this.started = this.hello.then(() => {});
      this.started.catch(() => {});
    }
    return this.started;
  }

  /** Calls `listener` once when the connection ends for good; at once if it already has. */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.ended.on(listener);
  }

  get closed(): boolean {
    return this.ended.error !== undefined;
  }

  /** Fails every pending and future call. */
  die(reason: string): void {
    const error = new StoreClosedError(reason);
    if (!this.ended.fire(error)) return;
    this.early.end();
    this.stopWatching.abort();
    for (const fail of [...this.pending]) fail(error);
    this.pending.clear();
  }

  /** `operation` names the call in an error about its request. */
  call<T>(operation: string, invoke: (remote: Remote<HostApi>) => Promise<Result<T>>): Promise<T> {
    this.early.calling(operation);
    // Checked after: starting the worker for this call may have failed.
    if (this.ended.error) return Promise.reject(this.ended.error);
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        clearTimeout(timer);
        this.pending.delete(fail);
      };
      const fail = (error: Error): void => {
        done();
        reject(error);
      };
      this.pending.add(fail);
      const { timeoutMs } = this.options;
      // Counted from the worker's start: one started on demand (./early-reads.ts) had no time before it.
      if (timeoutMs !== undefined) {
        const expired = `the store did not answer within ${timeoutMs} ms; the call's outcome is unknown`;
        void this.early.started.then(() => {
          if (this.pending.has(fail)) timer = setTimeout(() => fail(new TimeoutError(expired)), timeoutMs);
        });
      }
      let sent: Promise<Result<T>>;
      let posted = true;
      try {
        sent = invoke(this.remote);
      } catch (error) {
        // Comlink reads the arguments before posting them: a hostile request throws right here.
        posted = false;
        sent = Promise.reject(error);
      }
      sent.then(
        (result) => {
          if (!this.pending.has(fail)) return;
          done();
          if (result.ok) resolve(result.value);
          else reject(fromWireError(result.error));
        },
        (error: unknown) => {
          if (!this.pending.has(fail)) return;
          fail(callFailure(operation, error, posted));
        },
      );
    });
  }

  /**
   * Appends issued together (several sessions answering in the same turn, as
   * agents awaiting their appends do) go as one message, so the worker commits
   * them in one group and answers them together. Gathered until the microtasks
   * queued so far have run: no timer, so a hidden tab is not slowed down.
   */
  appendEvents(batch: AppendBatch): Promise<AppendOutcome> {
    // Before its message leaves, in a later microtask: a read issued after it must not be the page's.
    this.early.stop();
    return new Promise((resolve, reject) => {
      if (!this.outbox) {
        this.outbox = [];
        queueMicrotask(() => {
          const out = this.outbox ?? [];
          this.outbox = undefined;
          this.sendAppends(out);
        });
      }
      this.outbox.push({ batch, resolve, reject });
    });
  }

  private sendAppends(out: Outgoing[]): void {
    if (out.length === 1 || this.oneByOne) {
      for (const o of out) this.call('appendEvent', (r) => r.appendEvents(o.batch)).then(o.resolve, o.reject);
      return;
    }
    for (let i = 0; i < out.length; i += MAX_BATCHES) this.sendMany(out.slice(i, i + MAX_BATCHES));
  }

  private sendMany(out: Outgoing[]): void {
    this.call('appendEvent', (r) => r.appendMany(out.map((o) => o.batch))).then(
      (results) => {
        out.forEach((o, i) => {
          const result = results[i];
          if (!result) o.reject(new StorageError('appendEvent: the store worker gave no answer for this append'));
          else if (result.ok) o.resolve(result.value);
          else o.reject(fromWireError(result.error));
        });
      },
      (error: unknown) => {
        // An older host without `appendMany` threw on it, running none of the batches.
        if (threwInWorker.has(error as object)) {
          this.oneByOne = true;
          this.sendAppends(out);
        } else for (const o of out) o.reject(error);
      },
    );
  }

  /** Read in this page while the worker starts, when it may be (./early-reads.ts); by the worker otherwise. */
  getSession(request: GetSessionRequest): Promise<LoadedSession | undefined> {
    const ask = (r: GetSessionRequest) => this.ask('getSession', 'getSession', (remote) => remote.getSession(r));
    // Taken now, as posting it would be (and only while the page may read it: posting clones it anyway).
    const copy = this.early.reading ? cloned(request) : undefined;
    const early = copy && this.early.read(copy);
    if (!copy || !early) return ask(request);
    return early.then((loaded) => {
      if (this.ended.error) throw this.ended.error;
      return loaded === null ? ask(copy) : loaded;
    });
  }

  /** True when the host said which calls it serves and `method` is not one of them. */
  private lacks(method: keyof HostApi): boolean {
    return this.served !== undefined && !this.served.has(method);
  }

  /** `call`, refused on the page when the host said it does not serve `method`. */
  ask<T>(
    method: keyof HostApi,
    operation: string,
    invoke: (remote: Remote<HostApi>) => Promise<Result<T>>,
  ): Promise<T> {
    if (this.lacks(method)) {
      return Promise.reject(new StorageError(`${operation}: not served by this older store worker; reload all tabs`));
    }
    return this.call(operation, invoke);
  }

  importWithArtifacts(
    batch: ImportBatch,
    artifacts: Parameters<ArtifactBackend['importWithArtifacts']>[1],
    onProgress?: (processed: number) => void,
  ) {
    return this.ask('importWithArtifacts', 'importArchive', (r) =>
      r.importWithArtifacts(batch, artifacts, onProgress && proxy(onProgress)),
    );
  }

  startSync(request: SyncStartOptions, onStatus: (status: SyncStatus) => void) {
    // Functions cannot cross to the worker: said here, in words, rather than as a failed structured clone.
    const { conflict, fetch } = (request ?? {}) as Partial<SyncStartOptions>;
    if (typeof conflict === 'function' || fetch !== undefined) {
      const field = fetch === undefined ? 'conflict' : 'fetch';
      return Promise.reject(
        new InvalidInputError(`sync: ${field}: a function cannot reach the store worker; use an in-thread store`),
      );
    }
    return this.ask('startSync', 'sync', (r) => r.startSync(request, proxy(onStatus)));
  }
  syncNow() {
    return this.ask('syncNow', 'syncNow', (r) => r.syncNow());
  }
  stopSync() {
    return this.call('stopSync', (r) => r.stopSync());
  }

  /**
   * Ends the connection (its writes already answered); later calls reject with `StoreClosedError`.
   * A worker alive but stuck never says goodbye: past `timeoutMs` (or 10 s) it is let go as if it had died.
   */
  async close(): Promise<void> {
    // A worker never started has nothing to say goodbye to.
    if (!this.early.workerStarted) this.die('the store client is closed');
    if (!this.ended.error) {
      const closed = 'the store client is closed';
      const timer = setTimeout(() => this.die(closed), this.options.timeoutMs ?? 10_000);
      await this.call('close', (r) => r.goodbye(this.options.closeStoreOnClose === true)).catch(() => {});
      clearTimeout(timer);
      this.remote[releaseProxy]();
      this.die(closed);
    }
    this.options.onReleased?.();
  }
}

/**
 * A call that got no `Result`, as a typed error. A request that cannot be read
 * or cloned never leaves the page: bad input (a port to a dead worker takes
 * messages silently; that is told by the life lock). Anything else was thrown
 * by the worker outside the store's own answers (a call it does not serve, an
 * answer it could not send): the store failed, whatever the request.
 */
function callFailure(operation: string, error: unknown, posted: boolean): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (!posted || (error as { name?: unknown } | null)?.name === 'DataCloneError') {
    return new InvalidInputError(`${operation}: request: cannot be sent to the store worker (${why})`);
  }
  const failure = new StorageError(`${operation}: the store worker failed (${why})`);
  threwInWorker.add(failure);
  return failure;
}

/** Failures the worker threw outside the store's answers (the call never ran as a store call). */
const threwInWorker = new WeakSet<object>();

/** Calls with a path of their own: appends go together; first reads may be the page's; an archive's import is named as the archive's. */
const OWN_PATH = ['appendEvents', 'getSession', 'importWithArtifacts'] as const;

const TABLE = { ...SESSION_METHODS, ...ARTIFACT_METHODS, ...SEARCH_METHODS, ...MEMORY_METHODS, ...DRAFT_METHODS };

/** The calls that pass their arguments through as they are, callbacks (an import's progress) as Comlink proxies. */
type Forwarded = Exclude<MethodOf<typeof TABLE>, (typeof OWN_PATH)[number]>;

type Calls = Record<string, (...args: unknown[]) => Promise<Result<unknown>>>;

type Parts = Backend & ArtifactBackend & SearchBackend & MemoryBackend & DraftBackend;
export interface RemoteBackend extends Pick<Parts, Forwarded> {}

for (const [method, at] of Object.entries(TABLE)) {
  if ((OWN_PATH as readonly string[]).includes(method)) continue;
  (RemoteBackend.prototype as unknown as Record<string, unknown>)[method] = function (
    this: RemoteBackend,
    ...args: unknown[]
  ) {
    if (at && args[at]) args[at] = proxy(args[at] as () => void);
    return this.ask(method as Forwarded, method, (remote) => (remote as unknown as Calls)[method]?.(...args) as never);
  };
}
