/**
 * The store's worker started when needed (src/client/later-worker.ts, early-reads.ts), over a
 * MessageChannel in Node: nothing reaches it before its start, everything posted before reaches it
 * after, in order, and a call's timeout counts from the start, not from the store's opening.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLater } from '../../src/client/connect.js';
import { LaterWorker } from '../../src/client/later-worker.js';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

/** A store whose worker starts when `opened()` says the page's own open is done (nothing read meanwhile). */
function laterStore(timeoutMs?: number) {
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'later' }), port1);
  let started = 0;
  const worker = new LaterWorker(() => {
    started++;
    return port2 as unknown as Worker;
  });
  let opened: () => void = () => {};
  const readEarly = new Promise<undefined>((resolve) => {
    opened = () => resolve(undefined);
  });
  const store = connectLater(worker, 'dedicated', { dbName: 'later', ...(timeoutMs && { timeoutMs }) }, readEarly);
  open.push(store);
  return { store, opened, started: () => started };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a worker started when needed', () => {
  it('starts once the page has nothing to read, and hears what was asked before', async () => {
    const { store, opened, started } = laterStore();
    let ready = false;
    void store.ready.then(() => {
      ready = true;
    });
    await pause(50);
    expect([started(), ready]).toEqual([0, false]);
    opened();
    await store.ready;
    expect(started()).toBe(1);
    expect(await store.listApps()).toEqual([]);
  });

  it('starts at the first call only the worker serves', async () => {
    const { store, started } = laterStore();
    const created = store.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    expect(started()).toBe(1);
    expect((await created).id).toBe('s');
  });

  it('counts timeoutMs from the start, not from the opening', async () => {
    const { store, opened } = laterStore(100);
    await pause(250);
    opened();
    await expect(store.ready).resolves.toBeUndefined();
    await expect(store.listApps()).resolves.toEqual([]);
  });

  it('closes without starting one', async () => {
    const { store, started } = laterStore();
    await store.close();
    expect(started()).toBe(0);
    expect(store.closed).toBe(true);
  });
});
