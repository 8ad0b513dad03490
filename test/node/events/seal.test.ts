/** The sealing suite (test/contract/seal.ts) in Node: in-thread, and through a worker's port. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
import { describeSeal } from '../../contract/seal.js';

let n = 0;
describeSeal(
  'in-thread',
  () => new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `seal-${n++}` }),
);
describeSeal('through a worker port', () => {
  const dbName = `seal-${n++}`;
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName }), port1);
  return connectSessionStore(port2, { dbName });
});
