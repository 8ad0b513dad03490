/**
 * Stores for the AI SDK adapter's node tests: one chat's key, and stores over a test's own
 * fake-indexeddb (the same factory again is a reload or a second tab), which `closeStores`
 * closes after each test.
 */
import { type IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../../src/index.js';

export const key = { appName: 'chat', userId: 'ada', sessionId: 'c1' };

const opened: IndexedDbSessionService[] = [];

export function storeOn(indexedDB: IDBFactory, dbName = 'chat'): IndexedDbSessionService {
  const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  opened.push(store);
  return store;
}

export async function closeStores(): Promise<void> {
  await Promise.all(opened.splice(0).map((s) => s.close()));
}
