/**
 * Search through a worker: the client asks, the worker's index answers, and the
 * host checks every request again (the page is another realm). The worker loads
 * search on its first call, and makes the index then: it must catch up with
 * what was written before and while it loaded.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { createHost, exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  connectSessionStore,
  exposeSessionService,
  IndexedDbSessionService,
  type SessionStoreClient,
} from '../../src/index.js';
import { say, textEvent } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const closers: (() => Promise<void>)[] = [];
/** A client over a MessageChannel to a bare engine exposed on the other end, closed after the test. */
function servedOverPort(dbName: string): SessionStoreClient {
  const { port1, port2 } = new MessageChannel();
  const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName });
  exposeEngine(engine, port1);
  const client = connectSessionStore(port2, { dbName });
  closers.push(async () => {
    await client.close();
    await engine.close();
  });
  return client;
}

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

it('answers a client through a port, with the same hits as in the worker', async () => {
  const client = servedOverPort('search-wire');
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

it('finds every append acknowledged before a search was asked, while the first search loads the index mid-burst', async () => {
  // A bare engine, as the bundled worker serves: nothing listens for changes until the first search.
  const client = servedOverPort('search-burst');
  const sessions = await Promise.all(
    Array.from({ length: 8 }, (_, i) => client.createSession({ ...ids, sessionId: `s${i}` })),
  );
  const acknowledged = new Set<string>();
  const written: Promise<unknown>[] = [];
  const missed: string[][] = [];
  const searched: Promise<unknown>[] = [];
  // The demo's sample data: every session's appends issued at once, round after round, unawaited.
  for (let round = 0; round < 6; round++) {
    for (const session of sessions) {
      const id = `${session.id}-${round}`;
      const event = textEvent(id, `北京的酒店 ${round}`);
      written.push(client.appendEvent({ session, event }).then(() => acknowledged.add(id)));
    }
    const before = [...acknowledged];
    searched.push(
      client.searchEvents({ ...ids, query: '酒店', limit: 100 }).then(({ hits }) => {
        const found = new Set(hits.map((h) => h.eventId));
        missed.push(before.filter((id) => !found.has(id)));
      }),
    );
    // Some of this round commits before the next is issued; the rest is still in flight.
    await written[written.length - 1];
  }
  await Promise.all([...written, ...searched]);
  expect(missed).toEqual(Array.from({ length: 6 }, () => []));
  expect(missed.length).toBe(6);
  const { hits } = await client.searchEvents({ ...ids, query: '酒店', limit: 100 });
  expect(hits.map((h) => h.eventId).sort()).toEqual([...acknowledged].sort());
  expect(acknowledged.size).toBe(48);
});
