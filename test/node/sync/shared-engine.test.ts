/**
 * One sync engine per store, shared by the connections (tabs) that start it
 * with the same options; a start with other options replaces it and tells the
 * connections it stopped. Counted at a stand-in server: every engine asks for
 * `GET /v1/limits` once, joining a running one asks nothing.
 */
import { createServer } from 'node:http';
import type { MessagePort as NodeMessagePort } from 'node:worker_threads';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, type SyncStatus } from '../../../src/index.js';

vi.setConfig({ testTimeout: 30_000 });

let engines = 0;
const server = createServer((request, response) => {
  if (request.url === '/v1/limits') {
    engines += 1;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ maxBodyBytes: 65536, maxPushEvents: 500 }));
    return;
  }
  response.writeHead(503, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: 'internal', message: 'stand-in' }));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let store: StoreEngine;
afterEach(async () => {
  await store?.close();
});

/** A tab: its own connection to the one store engine, as a SharedWorker serves tabs. */
function tab() {
  const { port1, port2 } = new MessageChannel();
  exposeEngine(store, port1);
  return connectSessionStore(port2, { dbName: store.dbName });
}
const as = (userId: string) => ({
  url,
  token: `${userId}-token`,
  appName: 'chat',
  userId,
  live: false,
  retry: { minMs: 60_000, maxMs: 60_000 },
});

describe('one sync per store, across connections', () => {
  it('start A, start B (other options), stop A, start B again, stop B: A is told, B keeps one engine', async () => {
    store = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `shared-${Math.random()}` });
    const [one, two, three] = [tab(), tab(), tab()];
    const seenByOne: SyncStatus[] = [];
    const a = await one.sync(as('alice'));
    a.onStatus((s) => seenByOne.push(s));
    await a.syncNow();
    expect(engines).toBe(1);

    const b = await two.sync(as('bob'));
    await b.syncNow();
    expect(engines).toBe(2);
    await vi.waitFor(() => expect(seenByOne.at(-1)?.phase).toBe('stopped'));
    expect(seenByOne.at(-1)?.lastError).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/other options/),
    });
    // The replaced connection's "sync now" answers that it stopped; it does not run bob's sync.
    expect((await a.syncNow()).phase).toBe('stopped');

    await a.stop();
    const again = await three.sync(as('bob'));
    await again.syncNow();
    expect(engines).toBe(2);
    await b.stop();
    // Bob's engine still serves the third tab: its rounds run (and meet the stand-in's 503).
    expect(await again.syncNow()).toMatchObject({ phase: 'error', lastError: { status: 503 } });
    expect(engines).toBe(2);
    await again.stop();
    await Promise.all([one.close(), two.close(), three.close()]);
  });

  it('start A, start B, stop B, stop A, then start A: a fresh engine, nothing left over', async () => {
    store = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `shared-${Math.random()}` });
    const [one, two] = [tab(), tab()];
    const before = engines;
    const a = await one.sync(as('alice'));
    await a.syncNow();
    const b = await two.sync(as('bob'));
    await b.syncNow();
    await b.stop();
    await a.stop();
    expect(engines).toBe(before + 2);
    const fresh = await one.sync(as('alice'));
    expect((await fresh.syncNow()).phase).toBe('error');
    expect(engines).toBe(before + 3);
    await fresh.stop();
    await Promise.all([one.close(), two.close()]);
  });

  it("stopping releases the status callback's port (no MessagePort left open per start)", async () => {
    store = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `shared-${Math.random()}` });
    const page = tab();
    // The callback crosses as a Comlink proxy: a channel made for it whose page side Comlink closes on release.
    const made: MessageChannel[] = [];
    const Channel = globalThis.MessageChannel;
    vi.stubGlobal(
      'MessageChannel',
      class extends Channel {
        constructor() {
          super();
          made.push(this);
        }
      },
    );
    const sync = await page.sync(as('alice')).finally(() => vi.unstubAllGlobals());
    expect(made).toHaveLength(1);
    const closed = vi.fn();
    (made[0]?.port1 as unknown as NodeMessagePort).once('close', closed);
    try {
      await sync.stop();
      await vi.waitFor(() => expect(closed).toHaveBeenCalled());
    } finally {
      await page.close();
    }
  });
});
