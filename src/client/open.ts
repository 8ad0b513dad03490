/**
 * One call to get a store in an app, in the mode that suits it.
 */
import type { ChangeFilter, ChangeListener } from '../changes.js';
import type { SessionFront } from '../front.js';
import { IndexedDbSessionService } from '../store/indexeddb-session-service.js';
import type { Durability, SessionCatalog, SessionService } from '../types.js';
import { type ConnectOptions, connectSessionStore } from './connect.js';

/**
 * - `'shared'`: one SharedWorker serves every tab of the origin;
 * - `'dedicated'`: a worker per tab (IndexedDB still keeps tabs consistent);
 * - `'in-thread'`: no worker, the store runs on the calling thread;
 * - `'auto'` (default): shared where the browser has SharedWorker, else dedicated, else in-thread.
 */
export type StoreMode = 'auto' | 'shared' | 'dedicated' | 'in-thread';

export interface OpenSessionStoreOptions {
  dbName?: string;
  mode?: StoreMode;
  /** Default durability of appends; see `Durability`. Default `'relaxed'`. */
  durability?: Durability;
  /** Per-call timeout through a worker, in ms. None by default. */
  timeoutMs?: number;
}

/** What `openSessionStore` returns, whatever the mode. */
export interface SessionStore
  extends SessionService,
    SessionCatalog,
    Pick<SessionFront, 'listSessionKeys' | 'importSessions'> {
  readonly mode: Exclude<StoreMode, 'auto'>;
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void;
}

function resolveMode(mode: StoreMode): Exclude<StoreMode, 'auto'> {
  if (mode !== 'auto') return mode;
  if (typeof SharedWorker !== 'undefined') return 'shared';
  if (typeof Worker !== 'undefined') return 'dedicated';
  return 'in-thread';
}

export function openSessionStore(options: OpenSessionStoreOptions = {}): SessionStore {
  const mode = resolveMode(options.mode ?? 'auto');
  const { dbName, durability, timeoutMs } = options;
  if (mode === 'in-thread') {
    const service = new IndexedDbSessionService({
      ...(dbName !== undefined ? { dbName } : {}),
      ...(durability !== undefined ? { durability } : {}),
    });
    return Object.assign(service, { mode });
  }
  const connect: ConnectOptions = {
    ...(dbName !== undefined ? { dbName } : {}),
    ...(durability !== undefined ? { durability } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
  const client =
    mode === 'shared'
      ? connectSessionStore(
          new SharedWorker(new URL('../../worker/shared.ts', import.meta.url), {
            type: 'module',
            name: 'idb-adk-sessions',
          }),
          connect,
        )
      : connectSessionStore(new Worker(new URL('../../worker/dedicated.ts', import.meta.url), { type: 'module' }), {
          ...connect,
          ownsWorker: true,
        });
  return Object.assign(client, { mode });
}
