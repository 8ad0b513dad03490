/**
 * Search through a worker: the client asks, the worker's index answers, and the
 * host checks every request again (the page is another realm).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { createHost } from '../../src/host/expose.js';
import { connectSessionStore, exposeSessionService, IndexedDbSessionService, StoreEngine } from '../../src/index.js';
import { say } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

it('answers a client through a port, with the same hits as in the worker', async () => {
  const { port1, port2 } = new MessageChannel();
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'search-wire' });
  exposeSessionService(engine, port1);
  const client = connectSessionStore(port2, { dbName: 'search-wire' });
  closers.push(async () => {
    await client.close();
    await engine.close();
  });
  const s = await client.createSession({ ...ids, sessionId: 's' });
  await say(client, s, [
    ['a', '会議の資料を送ってください'],
    ['b', 'Send the meeting notes'],
  ]);
  const { hits } = await client.searchEvents({ ...ids, query: '資料' });
  expect(hits.map((h) => [h.sessionId, h.eventId, h.author])).toEqual([['s', 'a', 'user']]);
  expect(hits[0]?.snippet).toEqual({ text: '会議の資料を送ってください', ranges: [[3, 5]] });
  await expect(client.searchEvents({ ...ids, query: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
});

it('refuses, in the worker, requests the page-side checks would have refused', async () => {
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'search-host' });
  closers.push(() => engine.close());
  const host = createHost(() => engine);
  await host.hello({});
  const bad = [
    { ...ids, query: '' },
    { ...ids, query: 'x', limit: 1e9 },
    { ...ids, query: { toString: () => 'x' } },
    { appName: ids.appName, query: 'x' },
    { ...ids, query: 'x', sessionId: ' padded ' },
  ];
  for (const request of bad) {
    const result = await host.searchEvents(request as never);
    expect(result.ok, JSON.stringify(request)).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('INVALID_INPUT');
  }
  expect(await host.searchEvents({ ...ids, query: 'x' })).toEqual({ ok: true, value: { hits: [] } });
});

it('keeps no index in a worker serving a service made with `search: false`', async () => {
  const { port1, port2 } = new MessageChannel();
  const service = new IndexedDbSessionService({
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    dbName: 'no-search',
    search: false,
  });
  exposeSessionService(service, port1);
  const client = connectSessionStore(port2, { dbName: 'no-search' });
  closers.push(async () => {
    await client.close();
    await service.close();
  });
  await expect(client.searchEvents({ ...ids, query: 'x' })).rejects.toThrow(/search is turned off/);
});
