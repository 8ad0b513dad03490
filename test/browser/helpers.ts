/** Shared helpers for tests in a real browser. */
import { connectSessionStore, type SessionStoreClient } from '../../src/index.js';

let counter = 0;
export const uniqueDbName = (prefix: string): string => `${prefix}-${Date.now()}-${counter++}`;

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/** A client over its own dedicated module worker: what one tab has. */
export function dedicatedClient(
  dbName: string,
  options: { timeoutMs?: number } = {},
): {
  client: SessionStoreClient;
  worker: Worker;
} {
  const worker = new Worker(new URL('../../worker/store.ts', import.meta.url), { type: 'module' });
  return { client: connectSessionStore(worker, { dbName, ownsWorker: true, ...options }), worker };
}

/** A client over the origin's SharedWorker. */
export function sharedClient(dbName: string): SessionStoreClient {
  const worker = new SharedWorker(new URL('../../worker/store.ts', import.meta.url), {
    type: 'module',
    name: 'idb-adk-sessions-test',
  });
  return connectSessionStore(worker, { dbName });
}
