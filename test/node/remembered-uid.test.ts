import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeRememberedUid } from '../contract/remembered-uid.js';

describeRememberedUid('two in-thread instances over fake-indexeddb', () => {
  const indexedDB = new IDBFactory();
  return [
    new IndexedDbSessionService({ indexedDB, dbName: 'uid' }),
    new IndexedDbSessionService({ indexedDB, dbName: 'uid' }),
  ];
});
