/** Sync as an app starts it: `store.sync(...)` on the client (engine across a port) and on the in-thread store. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { connectSessionStore, IndexedDbSessionService, type SyncStatus } from '../../../src/index.js';
import { StoreEngine } from '../../../src/store/engine.js';
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

  it('refuses bad options with a clear error', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'surface-bad' });
    await expect(store.sync({ url: 'ftp://x', token: 't', appName: 'chat', userId: 'u' })).rejects.toThrow(
      /sync: url: must be an http\(s\) URL/,
    );
    await store.close();
  });
});
