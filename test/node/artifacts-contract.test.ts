import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../src/index.js';
import { describeArtifactContract } from '../contract/artifacts.js';
import { refusingBlobs } from './refuses-blobs.js';

// The factory alone, nothing global: range reads step cursors.
describeArtifactContract('in-thread over fake-indexeddb', () => {
  const indexedDB = new IDBFactory();
  return { open: () => new IndexedDbSessionService({ indexedDB, dbName: 'artifacts' }) };
});

describeArtifactContract('in-thread over fake-indexeddb, native key ranges', () => {
  const indexedDB = new IDBFactory();
  return { open: () => new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'artifacts' }) };
});

describeArtifactContract('in-thread over fake-indexeddb, bytes stored as ArrayBuffers', () => {
  const indexedDB = new IDBFactory();
  return {
    open: () =>
      new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'artifacts', artifactBytes: 'arraybuffer' }),
  };
});

// WebKit's ephemeral sessions (Safari's Private Browsing) refuse every Blob: the store switches to ArrayBuffers itself.
describeArtifactContract('in-thread over fake-indexeddb refusing Blobs as WebKit does', () => {
  const { indexedDB } = refusingBlobs();
  return { open: () => new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'artifacts' }) };
});

// The worker boundary in Node: a host and a client on the two ends of a MessageChannel; Blobs cross it.
describeArtifactContract('client over a MessageChannel', () => {
  const indexedDB = new IDBFactory();
  const engine = new StoreEngine({ indexedDB, IDBKeyRange, dbName: 'artifacts' });
  return {
    open: () => {
      const { port1, port2 } = new MessageChannel();
      exposeEngine(engine, port1);
      return connectSessionStore(port2, { dbName: 'artifacts' });
    },
    dispose: () => engine.close(),
  };
});
