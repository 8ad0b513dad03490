/**
 * The two kinds of store the Node suites open on fake-indexeddb, each on a fresh database of its
 * own: in-thread (`IndexedDbSessionService`), and a client of a `StoreEngine` over a
 * `MessageChannel` port, as a page talks to its worker.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService, type SessionStore } from '../../src/index.js';

let n = 0;

/** An in-thread store on a new database named `<prefix>-<n>`. */
export function openInThread(prefix: string): IndexedDbSessionService {
  return new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `${prefix}-${n++}` });
}

/** A store whose engine answers over a port, on a new database named `<prefix>-<n>`. */
export function openThroughPort(prefix: string): SessionStore {
  const dbName = `${prefix}-${n++}`;
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName }), port1);
  return connectSessionStore(port2, { dbName });
}

/** Both kinds, named as the suites name them, for a suite per kind or `describe.each`. */
export function storeKinds(prefix: string): [string, () => SessionStore][] {
  return [
    ['in-thread', () => openInThread(prefix)],
    ['through a worker port', () => openThroughPort(prefix)],
  ];
}
