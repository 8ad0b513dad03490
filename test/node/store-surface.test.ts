/**
 * The `SessionStore` surface (test/contract/store-surface.ts) on every way of
 * getting a store that runs in Node: `openSessionStore({ mode: 'in-thread' })`,
 * `new IndexedDbSessionService`, and `connectSessionStore` over a
 * `MessageChannel` to a served service. The browser file adds the workers.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  connectSessionStore,
  exposeSessionService,
  IndexedDbSessionService,
  openSessionStore,
} from '../../src/index.js';
import { describeStoreSurface } from '../contract/store-surface.js';

let n = 0;
const dbName = (prefix: string) => `${prefix}-${++n}`;

/** Deletes a database as another tab would; resolves once the deletion went through. */
const deleteIn = (factory: IDBFactory, name: string) =>
  new Promise<void>((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });

describeStoreSurface("openSessionStore({ mode: 'in-thread' })", () => {
  const name = dbName('surface-lazy');
  return {
    mode: 'in-thread',
    open: () => openSessionStore({ dbName: name, mode: 'in-thread' }),
    takeAway: () => deleteIn(indexedDB, name),
  };
});

describeStoreSurface('new IndexedDbSessionService', () => {
  const name = dbName('surface-eager');
  const factory = new IDBFactory();
  return {
    mode: 'in-thread',
    open: () => new IndexedDbSessionService({ indexedDB: factory, IDBKeyRange, dbName: name }),
    takeAway: () => deleteIn(factory, name),
  };
});

describeStoreSurface('connectSessionStore over a MessagePort', () => {
  const name = dbName('surface-port');
  const factory = new IDBFactory();
  const served = new IndexedDbSessionService({ indexedDB: factory, IDBKeyRange, dbName: name });
  return {
    mode: 'port',
    open: () => {
      const { port1, port2 } = new MessageChannel();
      exposeSessionService(served, port1);
      return connectSessionStore(port2, { dbName: name });
    },
    dispose: () => served.close(),
    takeAway: () => deleteIn(factory, name),
  };
});
