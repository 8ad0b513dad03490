/** The compaction differential (test/adk/compaction-differential.ts) in Node: in-thread and through a port. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { AdkSessionService } from '../../../src/adk/index.js';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
import { describeCompactionDifferential } from '../../adk/compaction-differential.js';

let n = 0;
const inThread = () => new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `cd-${n++}` });
const throughPort = () => {
  const dbName = `cd-${n++}`;
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName }), port1);
  return connectSessionStore(port2, { dbName });
};

describeCompactionDifferential('Node, fake-indexeddb', () => [
  { label: 'in-thread, every event read', open: () => new AdkSessionService(inThread()) },
  {
    label: 'in-thread, fromLatestCompaction',
    open: () => new AdkSessionService(inThread(), { fromLatestCompaction: true }),
  },
  {
    label: 'through a port, fromLatestCompaction',
    open: () => new AdkSessionService(throughPort(), { fromLatestCompaction: true }),
  },
]);
