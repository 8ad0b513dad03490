import { IDBFactory } from 'fake-indexeddb';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore } from '../../src/index.js';
import { describeContract } from '../contract/contract.js';

let n = 0;
describeContract('client over a MessageChannel, fake-indexeddb', () => {
  const indexedDB = new IDBFactory();
  const dbName = `client-contract-${n++}`;
  return {
    open: () => {
      // Each open is a separate "tab": its own engine and connection to the one database.
      const { port1, port2 } = new MessageChannel();
      exposeEngine(new StoreEngine({ indexedDB, dbName }), port1);
      return connectSessionStore(port2, { dbName });
    },
  };
});
