import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeContract } from '../contract/contract.js';

describeContract('in-thread over fake-indexeddb', () => {
  const indexedDB = new IDBFactory();
  return { open: () => new IndexedDbSessionService({ indexedDB, dbName: 'contract' }) };
});
