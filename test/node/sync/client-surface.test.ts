/** Sync as an app starts it: `store.sync(...)` on the client (engine across a port) and on the in-thread store. */
// `openSessionStore({ mode: 'in-thread' })` takes no factory: it runs on these globals.
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  InvalidInputError,
  openSessionStore,
  type SyncStatus,
} from '../../../src/index.js';
import { turn } from '../../sync/devices.js';
import { type ServerProcess, startServer, TOKENS } from '../../sync/server-process.js';

// Each test talks to a server process over HTTP; on a loaded 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const key = { appName: 'chat', userId: 'alice', sessionId: 'surface' };

describe('store.sync', () => {
  it('through the client: status as values and events, sync now, and the other device gets the session', async () => {
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-a' });
    const { port1, port2 } = new MessageChannel();
    exposeEngine(engine, port1);
    const page = connectSessionStore(port2, { dbName: 'surface-a' });
    const laptop = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-b' });
    try {
      const session = await page.createSession({ ...key, state: { 'user:name': 'Ada', topic: 't' } });
      await page.appendEvent({ session, event: turn('from the phone', 'i1', { 'temp:scratch': 1, n: 1 }) });
      const seen: SyncStatus[] = [];
      const sync = await page.sync({
        url: server.url,
        token: TOKENS.alice,
        appName: 'chat',
        userId: 'alice',
        live: false,
      });
      sync.onStatus((s) => seen.push(s));
      const after = await sync.syncNow();
      expect(after).toMatchObject({ phase: 'idle', online: true, pending: 0, lastError: null });
      expect(after.lastSyncAt).toBeGreaterThan(0);
      expect(sync.status.pending).toBe(0);
      expect(seen.some((s) => s.phase === 'idle')).toBe(true);

      const other = await laptop.sync({
        url: server.url,
        token: TOKENS.alice,
        appName: 'chat',
        userId: 'alice',
        live: false,
      });
      await other.syncNow();
      const got = await laptop.getSession(key);
      expect(got?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['from the phone']);
      // `temp:` never left the phone; session and user state did.
      expect(got?.state).toEqual({ 'user:name': 'Ada', topic: 't', n: 1 });
      expect(JSON.stringify(got?.events)).not.toContain('temp:');

      // Pending counts per session before a sync; the laptop's write arrives on the phone.
      const there = (await laptop.getSession(key)) as NonNullable<Awaited<ReturnType<typeof laptop.getSession>>>;
      await laptop.appendEvent({ session: there, event: turn('from the laptop', 'i2') });
      await laptop.appendEvent({ session: there, event: turn('and again', 'i2') });
      const before = await other.syncNow().then(() => other.status);
      expect(before.pending).toBe(0);
      await sync.syncNow();
      expect((await page.getSession(key))?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual([
        'from the phone',
        'from the laptop',
        'and again',
      ]);
      await sync.stop();
      await other.stop();
    } finally {
      await page.close();
      await engine.close();
      await laptop.close();
    }
  });

  it('counts pending changes per session while the server is unreachable, and names the error', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-off' });
    try {
      const s = await store.createSession({ ...key, sessionId: 'off' });
      await store.appendEvent({ session: s, event: turn('x', 'i') });
      const sync = await store.sync({
        url: 'http://127.0.0.1:9',
        token: 't',
        appName: 'chat',
        userId: 'alice',
        live: false,
        retry: { minMs: 60_000, maxMs: 60_000 },
      });
      const status = await sync.syncNow();
      expect(status).toMatchObject({ phase: 'offline', online: false, pending: 2, sessions: { off: 2 } });
      expect(status.lastError?.kind).toBe('network');
      await sync.stop();
    } finally {
      await store.close();
    }
  });

  it('counts a session whose id is `__proto__` as a plain key, and syncs it', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-proto' });
    try {
      const s = await store.createSession({ ...key, sessionId: '__proto__' });
      await store.appendEvent({ session: s, event: turn('x', 'i') });
      const sync = await store.sync({
        url: 'http://127.0.0.1:9',
        token: 't',
        appName: 'chat',
        userId: 'alice',
        live: false,
      });
      const offline = await sync.syncNow();
      expect(Object.hasOwn(offline.sessions, '__proto__')).toBe(true);
      expect(offline.sessions.__proto__).toBe(2);
      await sync.stop();
      const online = await store.sync({
        url: server.url,
        token: TOKENS.alice,
        appName: 'chat',
        userId: 'alice',
        live: false,
      });
      expect(await online.syncNow()).toMatchObject({ pending: 0, lastError: null });
      await online.stop();
    } finally {
      await store.close();
    }
  });

  it('in-thread, store.sync takes a conflict callback and the app’s own fetch (no engine to reach for)', async () => {
    const options = { url: server.url, token: TOKENS.alice, appName: 'chat', userId: 'alice', live: false } as const;
    const device = (name: string) =>
      new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `surface-cb-${name}` });
    const phone = device('phone');
    const laptop = openSessionStore({ dbName: `surface-cb-laptop-${Date.now()}`, mode: 'in-thread' });
    const fetched: string[] = [];
    const conflicts: string[][] = [];
    try {
      const a = await phone.sync(options);
      const b = await laptop.sync({
        ...options,
        fetch: (input, init) => {
          fetched.push(String(input));
          return fetch(input, init);
        },
        conflict: ({ server, pending }) => {
          conflicts.push([...server, ...pending].map((e) => e.content?.parts?.[0]?.text ?? '?'));
          return 'drop';
        },
      });
      const onPhone = await phone.createSession({ ...key, sessionId: 'cb' });
      await a.syncNow();
      await b.syncNow();
      const onLaptop = (await laptop.getSession({ ...key, sessionId: 'cb' })) as NonNullable<
        Awaited<ReturnType<typeof laptop.getSession>>
      >;
      await phone.appendEvent({ session: onPhone, event: turn('kept', 'i1') });
      await laptop.appendEvent({ session: onLaptop, event: turn('dropped', 'i2') });
      await a.syncNow();
      expect(await b.syncNow()).toMatchObject({ pending: 0, lastError: null });
      expect(conflicts).toEqual([['kept', 'dropped']]);
      expect(
        (await laptop.getSession({ ...key, sessionId: 'cb' }))?.events.map((e) => e.content?.parts?.[0]?.text),
      ).toEqual(['kept']);
      expect(fetched.length).toBeGreaterThan(0);
      expect(fetched.every((url) => url.startsWith(server.url))).toBe(true);
      await a.stop();
      await b.stop();
    } finally {
      await phone.close();
      await laptop.close();
    }
  });

  it('through a worker, refuses a conflict callback or a fetch in words: functions cannot cross', async () => {
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-cb-port' });
    const { port1, port2 } = new MessageChannel();
    exposeEngine(engine, port1);
    const page = connectSessionStore(port2, { dbName: 'surface-cb-port' });
    const options = { url: server.url, token: TOKENS.alice, appName: 'chat', userId: 'alice', live: false } as const;
    try {
      await expect(page.sync({ ...options, conflict: () => 'drop' })).rejects.toThrow(
        /sync: conflict: a function cannot reach the store worker; use an in-thread store/,
      );
      await expect(page.sync({ ...options, fetch })).rejects.toBeInstanceOf(InvalidInputError);
    } finally {
      await page.close();
      await engine.close();
    }
  });

  it('names the field of a change the server sent malformed, by the kind of change it says it is', async () => {
    const store = openSessionStore({ dbName: `surface-malformed-${Date.now()}`, mode: 'in-thread' });
    const answer = (change: unknown) => ({ changes: [change], cursor: 1, more: false, appState: {}, userState: {} });
    let change: unknown;
    try {
      const sync = await store.sync({
        url: server.url,
        token: TOKENS.alice,
        appName: 'chat',
        userId: 'alice',
        live: false,
        retry: { minMs: 60_000, maxMs: 60_000 },
        fetch: (input, init) =>
          String(input).includes('/changes?') ? Promise.resolve(Response.json(answer(change))) : fetch(input, init),
      });
      change = { type: 'event', seq: 1, sessionId: 's', pos: 0, event: 'not an event' };
      expect((await sync.syncNow()).lastError?.message).toContain(
        'sync pull answer: changes[0].event: must be a plain object',
      );
      change = { type: 'renamed', seq: 1, sessionId: 's' };
      expect((await sync.syncNow()).lastError?.message).toContain(
        'changes[0].type: must be one of "created", "event", "deleted"',
      );
      await sync.stop();
    } finally {
      await store.close();
    }
  });

  it('refuses bad options with a clear error', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-bad' });
    await expect(store.sync({ url: 'ftp://x', token: 't', appName: 'chat', userId: 'u' })).rejects.toThrow(
      /sync: url: must be an http\(s\) URL/,
    );
    await store.close();
  });
});
