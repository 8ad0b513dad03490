/**
 * A simulated device of the sync bench: a real store (in-thread, over its own fake-indexeddb:
 * the figures are the protocol's and the server's, not a browser's IndexedDB) with its sync
 * engine, and the events devices append. Used by the bench's process and by its device processes.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { engineOf } from '../../src/host/engine-of.js';
import { IndexedDbSessionService } from '../../src/index.js';
import { SyncEngine } from '../../src/sync/index.js';
import { TOKENS } from '../../test/sync/server-process.js';

export type Device = ReturnType<typeof device>;

let dbs = 0;
export function device(url: string, appName: string, live = false) {
  const store = new IndexedDbSessionService({
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    dbName: `bench-${process.pid}-${++dbs}`,
  });
  const sync = new SyncEngine(engineOf(store), {
    url,
    token: TOKENS.model,
    appName,
    userId: 'model',
    live,
    pushDelayMs: 0,
    retry: { minMs: 100, maxMs: 1000 },
  });
  return { store, sync };
}

export const event = (i: number, text: string) => ({
  id: `e-${i}-${Math.random().toString(36).slice(2, 10)}`,
  invocationId: `inv-${Math.floor(i / 4)}`,
  author: i % 2 ? 'model' : 'user',
  timestamp: Date.now(),
  content: { role: i % 2 ? 'model' : 'user', parts: [{ text }] },
  actions: { stateDelta: { turn: i } },
});
