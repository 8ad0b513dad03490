import { IndexedDbSessionService } from '../../src/index.js';
import { describeContract } from '../contract/contract.js';

let n = 0;
describeContract('in-thread over browser IndexedDB', () => {
  const dbName = `contract-${Date.now()}-${n++}`;
  return {
    open: () => new IndexedDbSessionService({ dbName }),
    dispose: () =>
      new Promise<void>((resolve) => {
        const request = indexedDB.deleteDatabase(dbName);
        request.onsuccess = request.onerror = request.onblocked = () => resolve();
      }),
  };
});
