import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeArtifactContract } from '../contract/artifacts.js';

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
