/** The artifact differential suite (test/adk/artifacts.ts) in Node: in-thread, and through a client over a MessageChannel. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { AdkArtifactService } from '../../../src/adk/index.js';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
import { describeArtifactDifferential } from '../../adk/artifacts.js';

let n = 0;

describeArtifactDifferential('in-thread over fake-indexeddb', () => {
  const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `adk-art-${n++}` });
  return { service: new AdkArtifactService(store.artifacts), close: () => store.close() };
});

describeArtifactDifferential('through a client over a MessageChannel', () => {
  const { port1, port2 } = new MessageChannel();
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `adk-art-${n++}` });
  exposeEngine(engine, port1);
  const client = connectSessionStore(port2, { dbName: engine.dbName });
  return {
    service: new AdkArtifactService(client.artifacts),
    close: async () => {
      await client.close();
      await engine.close();
    },
  };
});
