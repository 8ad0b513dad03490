/** A sync server that takes the connection and never answers: the round fails as offline and is retried, never hangs. */
import { createServer, type Socket } from 'node:net';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IndexedDbSessionService } from '../../../src/index.js';

vi.setConfig({ testTimeout: 30_000 });

const sockets: Socket[] = [];
let connections = 0;
/** The request lines received, e.g. `GET /v1/apps/chat/users/alice/stream HTTP/1.1`. */
const requests: string[] = [];
const silent = createServer((socket) => {
  connections += 1;
  sockets.push(socket);
  socket.once('data', (chunk) => requests.push(chunk.toString().split('\r\n')[0] ?? ''));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('sync request timeouts', () => {
  it('a server that never answers fails the round as network after requestTimeoutMs, and it is retried', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'silent' });
    try {
      await store.createSession({ appName: 'chat', userId: 'alice', sessionId: 's' });
      const sync = await store.sync({
        url,
        token: 't',
        appName: 'chat',
        userId: 'alice',
        live: false,
        requestTimeoutMs: 300,
        retry: { minMs: 100, maxMs: 100 },
      });
      const status = await sync.syncNow();
      expect(status).toMatchObject({ phase: 'offline', online: false, pending: 1 });
      expect(status.lastError).toMatchObject({ kind: 'network', status: 0 });
      expect(status.lastError?.message).toMatch(/no answer within 300 ms/);
      const before = connections;
      // The backoff schedules the next round on its own.
      await vi.waitFor(() => expect(connections).toBeGreaterThan(before), { timeout: 10_000, interval: 50 });
      await sync.stop();
    } finally {
      await store.close();
    }
  });

  it('the change stream gives up on a server that never answers its headers, and connects again', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'silent-live' });
    try {
      const sync = await store.sync({
        url,
        token: 't',
        appName: 'chat',
        userId: 'alice',
        live: true,
        requestTimeoutMs: 200,
        retry: { minMs: 50, maxMs: 50 },
      });
      const streams = () => requests.filter((r) => r.includes('/users/alice/stream')).length;
      await vi.waitFor(() => expect(streams()).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 50 });
      await sync.stop();
    } finally {
      await store.close();
    }
  });
});
