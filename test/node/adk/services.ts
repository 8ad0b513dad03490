/** This store as the Node differential runs it: in-thread, and through the client over a MessageChannel. */
import { DatabaseSessionService } from '@google/adk';
import { LibSqlDriver } from '@mikro-orm/libsql';
import { IDBFactory } from 'fake-indexeddb';
import { AdkSessionService } from '../../../src/adk/index.js';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
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
    exposeEngine(engine, port1);
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

/**
 * ADK's persistent `DatabaseSessionService` on an embedded libsql file: the second
 * reference. Reloading closes its ORM and opens a new service on the same file.
 */
export function adkDatabase(file: string): ServiceUnderTest {
  const open = () => new DatabaseSessionService({ driver: LibSqlDriver, dbName: file });
  let current = open();
  // ADK 2.0's service has no close(); its ORM is the only handle on the file.
  const close = async () => {
    await (current as unknown as { orm?: { close(): Promise<void> } }).orm?.close();
  };
  return {
    label: "ADK's DatabaseSessionService (libsql)",
    get service() {
      return current;
    },
    async reload() {
      await close();
      current = open();
      return current;
    },
    close,
  };
}
