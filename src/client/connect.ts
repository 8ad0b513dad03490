/**
 * Page side: the store (`Store`, as every mode returns it) over one served by
 * a worker (dedicated or shared) or any `MessagePort`.
 */
import type { Endpoint } from 'comlink';
import type { Durability } from '../types.js';
import type { LaterWorker } from './later-worker.js';
import { RemoteBackend, type RemoteOptions } from './remote-backend.js';
import { type SessionStore, Store, type StoreKind } from './store.js';

/** What `connectSessionStore` takes besides its target. */
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

/** What serves the store: a `Worker` or `SharedWorker` running the bundled worker entry, or a `MessagePort` to one that `exposeSessionService` serves. */
export type ConnectTarget = Worker | SharedWorker | MessagePort;

/** A store used through a worker: the same type as every other store (`SessionStoreClient` is its old name). */
export type SessionStoreClient = SessionStore;

/** Connects to a store served by `exposeSessionService` or the bundled worker entry points. */
export function connectSessionStore(target: ConnectTarget, options: ConnectOptions = {}): SessionStore {
  return connect(target, options);
}

/**
 * `connectSessionStore`, and for the store's own worker (`openSessionStore`) the database it
 * serves, being opened for the page to read itself until the worker answers (./first-open.ts).
 */
export function connect(
  target: ConnectTarget,
  options: ConnectOptions,
  readEarly?: Promise<IDBDatabase | undefined>,
): SessionStore {
  let endpoint: Endpoint;
  let mode: StoreKind = 'port';
  const watch: EventTarget[] = [];
  let onReleased: (() => void) | undefined;
  if (typeof SharedWorker !== 'undefined' && target instanceof SharedWorker) {
    endpoint = target.port as unknown as Endpoint;
    target.port.start();
    watch.push(target, target.port);
    onReleased = () => target.port.close();
    mode = 'shared';
  } else if (typeof Worker !== 'undefined' && target instanceof Worker) {
    endpoint = target as unknown as Endpoint;
    watch.push(target);
    if (options.ownsWorker) onReleased = () => target.terminate();
    mode = 'dedicated';
  } else {
    const port = target as MessagePort;
    endpoint = port as unknown as Endpoint;
    watch.push(port);
    onReleased = () => port.close();
  }
  const remote = new RemoteBackend(endpoint, remoteOptions(options, { onReleased, readEarly }), watch);
  return new Store(remote, mode, options.durability);
}

/**
 * The store's own worker, started when first needed (./later-worker.ts), the page reading
 * its first sessions itself meanwhile from the database `readEarly` opens.
 */
export function connectLater(
  later: LaterWorker,
  mode: 'shared' | 'dedicated',
  options: ConnectOptions,
  readEarly: Promise<IDBDatabase | undefined>,
): SessionStore {
  const remote = new RemoteBackend(
    later.port,
    remoteOptions(options, { onReleased: () => later.release(), readEarly, startWorker: () => later.start() }),
    // A dedicated worker's errors arrive where its messages do.
    mode === 'shared' ? [later.worker, later.port] : [later.port],
  );
  return new Store(remote, mode, options.durability);
}

function remoteOptions(
  options: ConnectOptions,
  extra: Partial<Pick<RemoteOptions, 'onReleased' | 'readEarly' | 'startWorker'>>,
): RemoteOptions {
  const defined = Object.entries(extra).filter(([, value]) => value !== undefined);
  return {
    ...(options.dbName !== undefined ? { dbName: options.dbName } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    closeStoreOnClose: options.ownsWorker === true,
    ...(options.workerUrl !== undefined ? { workerUrl: String(options.workerUrl) } : {}),
    ...Object.fromEntries(defined),
  };
}
