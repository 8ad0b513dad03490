/**
 * `listApps` / `listUsers`: what the store holds, read from the app and user
 * records, through every layer (in-thread front, and a client over a worker-style
 * port whose host validates what arrives).
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  InvalidInputError,
  type SessionCatalog,
  type SessionService,
} from '../../src/index.js';

type Store = SessionService & SessionCatalog;

const layers: [string, (indexedDB: IDBFactory, dbName: string) => Store][] = [
  ['in-thread', (indexedDB, dbName) => new IndexedDbSessionService({ indexedDB, dbName })],
  [
    'client over a MessageChannel',
    (indexedDB, dbName) => {
      const { port1, port2 } = new MessageChannel();
      exposeEngine(new StoreEngine({ indexedDB, dbName }), port1);
      return connectSessionStore(port2, { dbName });
    },
  ],
];

let n = 0;
for (const [label, open] of layers) {
  describe(`catalog: ${label}`, () => {
    let store: Store;
    const fresh = (): Store => {
      store = open(new IDBFactory(), `catalog-${n++}`);
      return store;
    };
    afterEach(() => store?.close());

    it('lists nothing in an empty store', async () => {
      fresh();
      expect(await store.listApps()).toEqual([]);
      expect(await store.listUsers({ appName: 'chat' })).toEqual([]);
    });

    it('lists every app by name with its current session count', async () => {
      fresh();
      await store.createSession({ appName: 'zeta', userId: 'u1' });
      await store.createSession({ appName: 'chat', userId: 'u1' });
      await store.createSession({ appName: 'chat', userId: 'u2' });
      await store.createSession({ appName: 'chat', userId: 'u2' });
      expect(await store.listApps()).toEqual([
        { appName: 'chat', sessionCount: 3 },
        { appName: 'zeta', sessionCount: 1 },
      ]);
    });

    it("lists one app's users by id with their session counts, never another app's", async () => {
      fresh();
      await store.createSession({ appName: 'chat', userId: 'bob' });
      await store.createSession({ appName: 'chat', userId: 'ada' });
      await store.createSession({ appName: 'chat', userId: 'ada' });
      await store.createSession({ appName: 'chat-2', userId: 'eve' });
      await store.createSession({ appName: 'chatbot', userId: 'mallory' });
      expect(await store.listUsers({ appName: 'chat' })).toEqual([
        { appName: 'chat', userId: 'ada', sessionCount: 2 },
        { appName: 'chat', userId: 'bob', sessionCount: 1 },
      ]);
      expect(await store.listUsers({ appName: 'chat-2' })).toEqual([
        { appName: 'chat-2', userId: 'eve', sessionCount: 1 },
      ]);
    });

    it('counts drop on delete; the app and user stay listed with 0 while their state remains', async () => {
      fresh();
      const s = await store.createSession({ appName: 'chat', userId: 'ada', state: { 'app:k': 1, 'user:k': 2 } });
      await store.deleteSession({ appName: 'chat', userId: 'ada', sessionId: s.id });
      expect(await store.listApps()).toEqual([{ appName: 'chat', sessionCount: 0 }]);
      expect(await store.listUsers({ appName: 'chat' })).toEqual([{ appName: 'chat', userId: 'ada', sessionCount: 0 }]);
      expect(await store.getAppState({ appName: 'chat' })).toEqual({ k: 1 });
    });

    it('pages users with offset and limit in id order', async () => {
      fresh();
      for (const userId of ['u5', 'u1', 'u4', 'u2', 'u3']) await store.createSession({ appName: 'chat', userId });
      const ids = async (offset?: number, limit?: number) =>
        (
          await store.listUsers({
            appName: 'chat',
            ...(offset !== undefined ? { offset } : {}),
            ...(limit !== undefined ? { limit } : {}),
          })
        ).map((u) => u.userId);
      expect(await ids(0, 2)).toEqual(['u1', 'u2']);
      expect(await ids(2, 2)).toEqual(['u3', 'u4']);
      expect(await ids(4, 2)).toEqual(['u5']);
      expect(await ids(5, 2)).toEqual([]);
      expect(await ids(3)).toEqual(['u4', 'u5']);
      expect(await ids(0, 0)).toEqual([]);
    });

    it('keeps ids that look like object internals as plain ids', async () => {
      fresh();
      await store.createSession({ appName: '__proto__', userId: 'constructor' });
      expect(await store.listApps()).toEqual([{ appName: '__proto__', sessionCount: 1 }]);
      expect(await store.listUsers({ appName: '__proto__' })).toEqual([
        { appName: '__proto__', userId: 'constructor', sessionCount: 1 },
      ]);
    });

    it('rejects a bad listUsers request with InvalidInputError naming the field', async () => {
      fresh();
      await expect(store.listUsers({ appName: '' })).rejects.toThrow(InvalidInputError);
      await expect(store.listUsers({ appName: 'chat', limit: -1 })).rejects.toThrow(/listUsers: limit/);
      await expect(store.listUsers({ appName: 'chat', offset: 1.5 })).rejects.toThrow(/listUsers: offset/);
      await expect(store.listUsers({} as never)).rejects.toThrow(/listUsers: appName/);
    });
  });
}

describe('catalog: the worker host validates what arrives', () => {
  it('answers a malformed listUsers with an INVALID_INPUT result, not a crash', async () => {
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'catalog-host' });
    const host = createHost(() => engine);
    await host.hello({});
    const bad = await host.listUsers({ appName: 42 } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const good = await host.listApps();
    expect(good).toEqual({ ok: true, value: [] });
    await engine.close();
  });
});
