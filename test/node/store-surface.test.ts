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

describeStoreSurface("openSessionStore({ mode: 'in-thread' })", () => ({
  mode: 'in-thread',
  open: () => openSessionStore({ dbName: dbName('surface-lazy'), mode: 'in-thread' }),
}));

describeStoreSurface('new IndexedDbSessionService', () => ({
  mode: 'in-thread',
  open: () =>
    new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: dbName('surface-eager') }),
}));

describeStoreSurface('connectSessionStore over a MessagePort', () => {
  const name = dbName('surface-port');
  const served = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: name });
  return {
    mode: 'port',
    open: () => {
      const { port1, port2 } = new MessageChannel();
      exposeSessionService(served, port1);
      return connectSessionStore(port2, { dbName: name });
    },
    dispose: () => served.close(),
  };
});
