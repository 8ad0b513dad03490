/**
 * The page side of the boundary: the backend protocol over a Comlink proxy.
 * Comlink alone leaves a call pending forever if the worker dies; here every
 * call is tracked and rejected with `StoreClosedError` the moment the worker is
 * known to be gone (its life lock is granted to us, its port closes, a message
 * cannot be read) and with `TimeoutError` past the optional per-call timeout.
 */
import { type Endpoint, proxy, type Remote, releaseProxy, wrap } from 'comlink';
import { ARTIFACT_METHODS, type ArtifactBackend } from '../artifacts/protocol.js';
import { fromWireError, InvalidInputError, SessionStoreError, StoreClosedError, TimeoutError } from '../errors.js';
import { MEMORY_METHODS, type MemoryBackend } from '../memory/protocol.js';
import {
  type AppendBatch,
  type AppendOutcome,
  type Backend,
  type HelloResponse,
  type HostApi,
  type ImportBatch,
  type Result,
  SESSION_METHODS,
} from '../protocol.js';
import { SEARCH_METHODS, type SearchBackend } from '../search/protocol.js';
import type { SyncBackend, SyncStartRequest } from '../sync/protocol.js';
import type { SyncStatus } from '../sync/status.js';
import { describeStartFailure } from './start-failure.js';

export interface RemoteOptions {
  dbName?: string;
  timeoutMs?: number;
  /** Also close the store in the worker (its own worker, about to be terminated). */
  closeStoreOnClose?: boolean;
  /** Runs after the connection is released: terminate an owned worker, close a port. */
  onReleased?: () => void;
  /** The worker script's URL, when known: named (and probed) if the worker fails to start. */
  workerUrl?: string;
}

type Watchable = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

interface Outgoing {
  batch: AppendBatch;
  resolve: (outcome: AppendOutcome) => void;
  reject: (error: unknown) => void;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the forwarded methods are made below, from their list
export class RemoteBackend implements Backend, ArtifactBackend, SearchBackend, MemoryBackend, SyncBackend {
  readonly hello: Promise<HelloResponse>;
  private readonly remote: Remote<HostApi>;
  private readonly pending = new Set<(error: Error) => void>();
  private deadError: StoreClosedError | undefined;
  private readonly stopWatching = new AbortController();
  private readonly closeListeners = new Set<(error: StoreClosedError) => void>();
  private outbox: Outgoing[] | undefined;

  constructor(
    endpoint: Endpoint,
    private readonly options: RemoteOptions,
    watch: Watchable[],
  ) {
    this.remote = wrap<HostApi>(endpoint);
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
            void describeStartFailure(event, options.workerUrl).then(
              (message) => this.die(message),
              () => this.die('the store worker failed to start'),
            );
          }
        },
        { signal },
      );
    }
    this.hello = this.call('hello', (r) => r.hello({ ...(options.dbName ? { dbName: options.dbName } : {}) }));
    this.hello.then(
      (hello) => {
        greeted = true;
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

  /** Calls `listener` once when the connection ends for good. */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  get closed(): boolean {
    return this.deadError !== undefined;
  }

  /** Fails every pending and future call. */
  die(reason: string): void {
    if (this.deadError) return;
    const error = new StoreClosedError(reason);
    this.deadError = error;
    this.stopWatching.abort();
    for (const fail of [...this.pending]) fail(error);
    this.pending.clear();
    for (const listener of this.closeListeners) listener(error);
  }

  /** `operation` names the call in an error about its request. */
  call<T>(operation: string, invoke: (remote: Remote<HostApi>) => Promise<Result<T>>): Promise<T> {
    if (this.deadError) return Promise.reject(this.deadError);
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
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () =>
            fail(new TimeoutError(`the store did not answer within ${timeoutMs} ms; the call's outcome is unknown`)),
          timeoutMs,
        );
      }
      let sent: Promise<Result<T>>;
      try {
        sent = invoke(this.remote);
      } catch (error) {
        // Comlink reads the arguments before posting them: a hostile request throws right here.
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
          fail(sendFailure(operation, error));
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
    return new Promise((resolve, reject) => {
      if (!this.outbox) {
        this.outbox = [];
        queueMicrotask(() => this.sendAppends());
      }
      this.outbox.push({ batch, resolve, reject });
    });
  }

  private sendAppends(): void {
    const out = this.outbox ?? [];
    this.outbox = undefined;
    const [only] = out;
    if (out.length === 1 && only) {
      this.call('appendEvent', (r) => r.appendEvents(only.batch)).then(only.resolve, only.reject);
      return;
    }
    this.call('appendEvent', (r) => r.appendMany(out.map((o) => o.batch))).then(
      (results) => {
        results.forEach((result, i) => {
          const o = out[i] as Outgoing;
          if (result.ok) o.resolve(result.value);
          else o.reject(fromWireError(result.error));
        });
      },
      (error: unknown) => {
        for (const o of out) o.reject(error);
      },
    );
  }

  importSessions(batch: ImportBatch, onProgress?: (processed: number) => void) {
    return this.call('importSessions', (r) => r.importSessions(batch, onProgress && proxy(onProgress)));
  }
  importWithArtifacts(
    batch: ImportBatch,
    artifacts: Parameters<ArtifactBackend['importWithArtifacts']>[1],
    onProgress?: (processed: number) => void,
  ) {
    return this.call('importArchive', (r) => r.importWithArtifacts(batch, artifacts, onProgress && proxy(onProgress)));
  }

  startSync(request: SyncStartRequest, onStatus: (status: SyncStatus) => void) {
    return this.call('sync', (r) => r.startSync(request, proxy(onStatus)));
  }
  syncNow() {
    return this.call('syncNow', (r) => r.syncNow());
  }
  stopSync() {
    return this.call('stopSync', (r) => r.stopSync());
  }

  /** Ends the connection (its writes already answered); later calls reject with `StoreClosedError`. */
  async close(): Promise<void> {
    if (!this.deadError) {
      await this.call('close', (r) => r.goodbye(this.options.closeStoreOnClose === true)).catch(() => {});
      this.remote[releaseProxy]();
      this.die('the store client is closed');
    }
    this.options.onReleased?.();
  }
}

/**
 * Why a call never reached the worker, as a typed error. Posting to a worker
 * fails only while the request is read and cloned (a port to a dead worker
 * takes messages silently; that is told by the life lock): bad input.
 */
function sendFailure(operation: string, error: unknown): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new InvalidInputError(`${operation}: request: cannot be sent to the store worker (${why})`);
}

/** Calls with a path of their own: appends go together, imports report progress. */
const OWN_PATH = ['appendEvents', 'importSessions', 'importWithArtifacts'] as const;

/** The calls that pass their arguments through as they are. */
type Forwarded = Exclude<
  | (typeof SESSION_METHODS)[number]
  | (typeof ARTIFACT_METHODS)[number]
  | (typeof SEARCH_METHODS)[number]
  | (typeof MEMORY_METHODS)[number],
  (typeof OWN_PATH)[number]
>;
const FORWARDED = [...SESSION_METHODS, ...ARTIFACT_METHODS, ...SEARCH_METHODS, ...MEMORY_METHODS].filter(
  (m): m is Forwarded => !(OWN_PATH as readonly string[]).includes(m),
);

type Calls = Record<Forwarded, (...args: unknown[]) => Promise<Result<unknown>>>;

export interface RemoteBackend extends Pick<Backend & ArtifactBackend & SearchBackend & MemoryBackend, Forwarded> {}

for (const method of FORWARDED) {
  (RemoteBackend.prototype as unknown as Record<string, unknown>)[method] = function (
    this: RemoteBackend,
    ...args: unknown[]
  ) {
    return this.call(method, (remote) => (remote as unknown as Calls)[method](...args));
  };
}
