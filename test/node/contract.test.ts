import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeContract } from '../contract/contract.js';

// The factory alone, nothing global: range reads step cursors.
describeContract('in-thread over fake-indexeddb', () => {
  const indexedDB = new IDBFactory();
  return { open: () => new IndexedDbSessionService({ indexedDB, dbName: 'contract' }) };
});

// With the factory's own IDBKeyRange: native range reads, as in a browser.
describeContract('in-thread over fake-indexeddb, native key ranges', () => {
  const indexedDB = new IDBFactory();
  return { open: () => new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'contract' }) };
});
