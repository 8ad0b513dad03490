/**
 * The page side of the boundary: the backend protocol over a Comlink proxy.
 * Comlink alone leaves a call pending forever if the worker dies; here every
 * call is tracked and rejected with `StoreClosedError` the moment the worker is
 * known to be gone (its life lock is granted to us, its port closes, a message
 * cannot be read) and with `TimeoutError` past the optional per-call timeout.
 */
import { type Endpoint, proxy, type Remote, releaseProxy, wrap } from 'comlink';
import type { ArtifactBackend } from '../artifacts/protocol.js';
import { fromWireError, InvalidInputError, SessionStoreError, StoreClosedError, TimeoutError } from '../errors.js';
import type { AppendBatch, Backend, HelloResponse, HostApi, ImportBatch, Result } from '../protocol.js';
import type { SyncBackend, SyncStartRequest } from '../sync/protocol.js';
import type { SyncStatus } from '../sync/status.js';
import type {
  AppStateRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListUsersRequest,
  UserStateRequest,
} from '../types.js';
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

export class RemoteBackend implements Backend, ArtifactBackend, SyncBackend {
  readonly hello: Promise<HelloResponse>;
  private readonly remote: Remote<HostApi>;
  private readonly pending = new Set<(error: Error) => void>();
  private deadError: StoreClosedError | undefined;
  private readonly stopWatching = new AbortController();
  private readonly closeListeners = new Set<(error: StoreClosedError) => void>();

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
    this.hello = this.call((r) => r.hello({ ...(options.dbName ? { dbName: options.dbName } : {}) }));
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

  private call<T>(invoke: (remote: Remote<HostApi>) => Promise<Result<T>>): Promise<T> {
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
      invoke(this.remote).then(
        (result) => {
          if (!this.pending.has(fail)) return;
          done();
          if (result.ok) resolve(result.value);
          else reject(fromWireError(result.error));
        },
        (error: unknown) => {
          if (!this.pending.has(fail)) return;
          fail(sendFailure(error));
        },
      );
    });
  }

  createSession(request: CreateSessionRequest) {
    return this.call((r) => r.createSession(request));
  }
  getSession(request: GetSessionRequest) {
    return this.call((r) => r.getSession(request));
  }
  listSessions(request: ListSessionsRequest) {
    return this.call((r) => r.listSessions(request));
  }
  deleteSession(request: DeleteSessionRequest) {
    return this.call((r) => r.deleteSession(request));
  }
  appendEvents(batch: AppendBatch) {
    return this.call((r) => r.appendEvents(batch));
  }
  listSessionKeys(request: ListSessionKeysRequest) {
    return this.call((r) => r.listSessionKeys(request));
  }
  importSessions(batch: ImportBatch, onProgress?: (processed: number) => void) {
    return this.call((r) => r.importSessions(batch, onProgress && proxy(onProgress)));
  }
  getUserState(request: UserStateRequest) {
    return this.call((r) => r.getUserState(request));
  }
  getAppState(request: AppStateRequest) {
    return this.call((r) => r.getAppState(request));
  }
  listApps() {
    return this.call((r) => r.listApps());
  }
  listUsers(request: ListUsersRequest) {
    return this.call((r) => r.listUsers(request));
  }
  saveArtifact(...args: Parameters<ArtifactBackend['saveArtifact']>) {
    return this.call((r) => r.saveArtifact(...args));
  }
  loadArtifact(...args: Parameters<ArtifactBackend['loadArtifact']>) {
    return this.call((r) => r.loadArtifact(...args));
  }
  listArtifactKeys(...args: Parameters<ArtifactBackend['listArtifactKeys']>) {
    return this.call((r) => r.listArtifactKeys(...args));
  }
  deleteArtifact(...args: Parameters<ArtifactBackend['deleteArtifact']>) {
    return this.call((r) => r.deleteArtifact(...args));
  }
  listArtifactVersions(...args: Parameters<ArtifactBackend['listArtifactVersions']>) {
    return this.call((r) => r.listArtifactVersions(...args));
  }
  getArtifactVersion(...args: Parameters<ArtifactBackend['getArtifactVersion']>) {
    return this.call((r) => r.getArtifactVersion(...args));
  }
  artifactUsage(...args: Parameters<ArtifactBackend['artifactUsage']>) {
    return this.call((r) => r.artifactUsage(...args));
  }
  importWithArtifacts(
    batch: ImportBatch,
    artifacts: Parameters<ArtifactBackend['importWithArtifacts']>[1],
    onProgress?: (processed: number) => void,
  ) {
    return this.call((r) => r.importWithArtifacts(batch, artifacts, onProgress && proxy(onProgress)));
  }

  startSync(request: SyncStartRequest, onStatus: (status: SyncStatus) => void) {
    return this.call((r) => r.startSync(request, proxy(onStatus)));
  }
  syncNow() {
    return this.call((r) => r.syncNow());
  }
  stopSync() {
    return this.call((r) => r.stopSync());
  }

  /** Ends the connection (its writes already answered); later calls reject with `StoreClosedError`. */
  async close(): Promise<void> {
    if (!this.deadError) {
      await this.call((r) => r.goodbye(this.options.closeStoreOnClose === true)).catch(() => {});
      this.remote[releaseProxy]();
      this.die('the store client is closed');
    }
    this.options.onReleased?.();
  }
}

/**
 * Why a call never reached the worker, as a typed error: a request the
 * structured clone refuses (validated, then changed by a getter) is bad input;
 * anything else means the channel is unusable.
 */
function sendFailure(error: unknown): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'DataCloneError') {
    return new InvalidInputError(`request cannot be sent to the store worker: ${message}`);
  }
  return new StoreClosedError(`the store worker cannot be reached: ${message}`);
}
