/** This store as the Node differential runs it: in-thread, and through the client over a MessageChannel. */
import { IDBFactory } from 'fake-indexeddb';
import { AdkSessionService } from '../../../src/adk/index.js';
import { connectSessionStore, exposeSessionService, IndexedDbSessionService, StoreEngine } from '../../../src/index.js';
import type { ServiceUnderTest } from '../../adk/services.js';

export function inThreadStore(dbName: string): ServiceUnderTest {
  const indexedDB = new IDBFactory();
  let current = new AdkSessionService(new IndexedDbSessionService({ indexedDB, dbName }));
  return {
    label: 'this store, in-thread over fake-indexeddb',
    get service() {
      return current;
    },
    async reload() {
      await current.close();
      current = new AdkSessionService(new IndexedDbSessionService({ indexedDB, dbName }));
      return current;
    },
    close: () => current.close(),
  };
}

export function clientStore(dbName: string): ServiceUnderTest {
  const indexedDB = new IDBFactory();
  const open = () => {
    // The engine is the worker's side of the channel; the client is the page's.
    const engine = new StoreEngine({ indexedDB, dbName });
    const { port1, port2 } = new MessageChannel();
    exposeSessionService(engine, port1);
    return { engine, service: new AdkSessionService(connectSessionStore(port2, { dbName })) };
  };
  let current = open();
  const close = async () => {
    await current.service.close();
    await current.engine.close();
  };
  return {
    label: 'this store, through the client over a MessageChannel',
    get service() {
      return current.service;
    },
    async reload() {
      await close();
      current = open();
      return current.service;
    },
    close,
  };
}
