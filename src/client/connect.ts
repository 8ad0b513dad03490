/**
 * Page side: a client with the ADK method shapes over a store served by a
 * worker (dedicated or shared) or any `MessagePort`.
 */
import type { Endpoint } from 'comlink';
import { ArtifactFront } from '../artifacts/front.js';
import { ChangeFeed, type ChangeFilter, type ChangeListener } from '../changes.js';
import type { StoreClosedError } from '../errors.js';
import { SessionFront } from '../front.js';
import { MemoryFront } from '../memory/front.js';
import type { Durability } from '../types.js';
import { RemoteBackend } from './remote-backend.js';
import { SyncHandle, type SyncStartOptions } from './sync-handle.js';

export interface ConnectOptions {
  /** The database to use; the worker's default (`'adk-sessions'`) when omitted. */
  dbName?: string;
  /** Durability of appends through this client that do not choose their own. */
  durability?: Durability;
  /** Rejects a call with `TimeoutError` when the worker has not answered in this many ms. */
  timeoutMs?: number;
  /** Terminate a `Worker` target when the client closes (set by `openSessionStore`). */
  ownsWorker?: boolean;
  /** The worker script's URL: named, with the likely cause and fix, if the worker fails to start. */
  workerUrl?: string | URL;
}

export type ConnectTarget = Worker | SharedWorker | MessagePort;

/** A store in a worker, used from the page. Same methods as the in-thread service. */
export class SessionStoreClient extends SessionFront {
  /** Artifacts (ADK's `BaseArtifactService`, and Blobs) in the worker's database; Blobs cross by reference. */
  readonly artifacts: ArtifactFront;
  /** Memory (ADK's memory service): what was added to it, searched in the worker. */
  readonly memory: MemoryFront;
  private readonly remote: RemoteBackend;
  private readonly feed: ChangeFeed;

  constructor(remote: RemoteBackend, durability: Durability | undefined) {
    super(remote, durability, remote);
    this.remote = remote;
    this.artifacts = new ArtifactFront(remote);
    this.memory = new MemoryFront(remote);
    this.feed = new ChangeFeed(remote.hello.then((h) => h.dbName));
  }

  /** Resolves once the worker has answered; rejects if it never does. Calls need not wait for it. */
  get ready(): Promise<void> {
    return this.remote.hello.then(() => {});
  }

  /** True once the client is closed or its worker is gone. */
  get closed(): boolean {
    return this.remote.closed;
  }

  /**
   * Calls `listener` after each committed change matching `filter`, from this
   * tab or any other. Returns the unsubscribe function.
   */
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void {
    return this.feed.subscribe(filter, listener);
  }

  /**
   * Starts syncing this store's sessions of one user with a sync server
   * (server/, `npm run server`): see README "Sync". The sync engine runs where
   * the store engine does; the handle gives its status and "sync now".
   */
  sync(options: SyncStartOptions): Promise<SyncHandle> {
    return SyncHandle.start(this.remote, options);
  }

  /** Calls `listener` once if the connection ends (worker crashed or terminated, database taken away, `close()`). */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.remote.onClose(listener);
  }

  /** Lets queued appends finish, then releases the connection (and terminates an owned worker). */
  override async close(): Promise<void> {
    await super.close();
    this.feed.close();
  }
}

/** Connects to a store served by `exposeSessionService` or the bundled worker entry points. */
export function connectSessionStore(target: ConnectTarget, options: ConnectOptions = {}): SessionStoreClient {
  let endpoint: Endpoint;
  const watch: EventTarget[] = [];
  let onReleased: (() => void) | undefined;
  if (typeof SharedWorker !== 'undefined' && target instanceof SharedWorker) {
    endpoint = target.port as unknown as Endpoint;
    target.port.start();
    watch.push(target, target.port);
    onReleased = () => target.port.close();
  } else if (typeof Worker !== 'undefined' && target instanceof Worker) {
    endpoint = target as unknown as Endpoint;
    watch.push(target);
    if (options.ownsWorker) onReleased = () => target.terminate();
  } else {
    const port = target as MessagePort;
    endpoint = port as unknown as Endpoint;
    watch.push(port);
    onReleased = () => port.close();
  }
  const remote = new RemoteBackend(
    endpoint,
    {
      ...(options.dbName !== undefined ? { dbName: options.dbName } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      closeStoreOnClose: options.ownsWorker === true,
      ...(onReleased ? { onReleased } : {}),
      ...(options.workerUrl !== undefined ? { workerUrl: String(options.workerUrl) } : {}),
    },
    watch,
  );
  return new SessionStoreClient(remote, options.durability);
}
