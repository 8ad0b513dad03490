/**
 * One call to get a store in an app, in the mode that suits it.
 */
import { startBundledWorker } from '../bundled-worker.js';
import { InvalidInputError } from '../core/errors.js';
import { DEFAULT_DB_NAME } from '../database/defaults.js';
import type { Durability } from '../types.js';
import { type ConnectOptions, connect, connectLater } from './connect.js';
import { openAsItIs } from './first-open.js';
import { LaterWorker } from './later-worker.js';
import { LazyEngine } from './lazy-engine.js';
import { type SessionStore, Store } from './store.js';

/**
 * - `'shared'`: one SharedWorker serves every tab of the origin;
 * - `'dedicated'`: a worker per tab (IndexedDB still keeps tabs consistent);
 * - `'in-thread'`: no worker, the store runs on the calling thread;
 * - `'auto'` (default): shared where the browser has SharedWorker, else dedicated, else in-thread.
 */
export type StoreMode = 'auto' | 'shared' | 'dedicated' | 'in-thread';

/** What `openSessionStore` takes; every option has a default. */
export interface OpenSessionStoreOptions {
  /** The database to use. Default `'adk-sessions'`. */
  dbName?: string;
  /** Where the store runs; see `StoreMode`. Default `'auto'`. */
  mode?: StoreMode;
  /** Default durability of appends; see `Durability`. Default `'relaxed'`. */
  durability?: Durability;
  /**
   * Per-call timeout through a worker, in ms, counted from the worker's start (a read the page
   * answers itself before it has none). None by default.
   */
  timeoutMs?: number;
  /**
   * Where the store's worker comes from, for set-ups whose bundler does not follow
   * `new Worker(new URL(..., import.meta.url))`: the URL of a served copy of
   * `idb-adk-sessions/dist/worker/store.js` (started in the chosen mode), or a
   * `Worker` / `SharedWorker` you started on it yourself (the mode follows it; a
   * `Worker` is terminated by `close()`).
   */
  worker?: string | URL | Worker | SharedWorker;
}

type WorkerMode = 'shared' | 'dedicated';

function resolveMode(mode: StoreMode, worker: OpenSessionStoreOptions['worker']): Exclude<StoreMode, 'auto'> {
  const given: WorkerMode | undefined =
    typeof SharedWorker !== 'undefined' && worker instanceof SharedWorker
      ? 'shared'
      : typeof Worker !== 'undefined' && worker instanceof Worker
        ? 'dedicated'
        : undefined;
  if (given && mode !== 'auto' && mode !== given) {
    throw new InvalidInputError(
      `openSessionStore: mode "${mode}" does not fit the ${given} worker passed as \`worker\``,
    );
  }
  if (given) return given;
  if (worker !== undefined && mode === 'in-thread') {
    throw new InvalidInputError('openSessionStore: mode "in-thread" runs no worker; leave out `worker`');
  }
  if (mode !== 'auto') return mode;
  if (typeof SharedWorker !== 'undefined') return 'shared';
  if (typeof Worker !== 'undefined') return 'dedicated';
  return 'in-thread';
}

function startWorker(mode: WorkerMode, worker: OpenSessionStoreOptions['worker']): Worker | SharedWorker {
  if (worker === undefined) return startBundledWorker(mode);
  if (typeof worker === 'string' || worker instanceof URL) {
    return mode === 'shared'
      ? new SharedWorker(worker, { type: 'module', name: 'idb-adk-sessions' })
      : new Worker(worker, { type: 'module' });
  }
  return worker;
}

/** Opens the store: in the origin's SharedWorker, this tab's worker or this thread, as `mode` says. Calls may be made at once; `ready` tells when it has started. */
export function openSessionStore(options: OpenSessionStoreOptions = {}): SessionStore {
  const mode = resolveMode(options.mode ?? 'auto', options.worker);
  const { dbName, durability, timeoutMs } = options;
  // In-thread, the engine's code is fetched by the first call (see LazyEngine): the page starts without it.
  if (mode === 'in-thread') {
    const engine = new LazyEngine({
      ...(dbName !== undefined ? { dbName } : {}),
      ...(durability !== undefined ? { durability } : {}),
    });
    return new Store(engine, mode);
  }
  // Opened first, for the page's first reads (./first-open.ts); the worker starts when needed (./later-worker.ts).
  const readEarly = openAsItIs(dbName ?? DEFAULT_DB_NAME);
  const url = typeof options.worker === 'string' || options.worker instanceof URL ? options.worker : undefined;
  const connectOptions: ConnectOptions = {
    ...(dbName !== undefined ? { dbName } : {}),
    ...(durability !== undefined ? { durability } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(url !== undefined ? { workerUrl: url } : {}),
    ownsWorker: mode === 'dedicated',
  };
  // A worker the app started itself is running already.
  if (options.worker !== undefined && url === undefined) {
    return connect(startWorker(mode, options.worker), connectOptions, readEarly);
  }
  return connectLater(new LaterWorker(() => startWorker(mode, options.worker)), mode, connectOptions, readEarly);
}
