/**
 * The Node project runs the store the way the README tells Node users to: a
 * factory passed in, nothing installed globally. Were a setup file to install
 * IndexedDB's globals again, every other Node test would stop proving that.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbSessionService } from '../../src/index.js';

describe('Node test environment', () => {
  it('has no IndexedDB globals, and a store on a bare factory still serves', async () => {
    for (const name of ['indexedDB', 'IDBFactory', 'IDBRequest', 'IDBKeyRange', 'IDBCursor', 'IDBTransaction']) {
      expect(typeof Reflect.get(globalThis, name), name).toBe('undefined');
    }
    const store = new IndexedDbSessionService({ dbName: 'no-globals', indexedDB: new IDBFactory() });
    const session = await store.createSession({ appName: 'a', userId: 'u', state: { n: 1 } });
    expect((await store.getSession({ appName: 'a', userId: 'u', sessionId: session.id }))?.state).toEqual({ n: 1 });
    await store.close();
  });
});
