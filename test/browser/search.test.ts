/**
 * Search in real Chromium, through the store's worker: a worker terminated
 * between its commits and their indexing (and after its index was saved) leaves
 * the next worker's search at most behind, and it catches up on its own; and text is
 * folded there as in Node.
 */
import { afterEach, expect, it } from 'vitest';
import type { SessionStoreClient } from '../../src/index.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from './helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const names: string[] = [];
const clients: SessionStoreClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {});
  for (const name of names.splice(0)) await deleteDatabase(name);
});

const textEvent = (id: string, text: string) => ({
  id,
  invocationId: `i-${id}`,
  author: 'user',
  timestamp: Date.now(),
  content: { role: 'user', parts: [{ text }] },
});

async function hitsOf(client: SessionStoreClient, query: string): Promise<string[]> {
  return (await client.searchEvents({ ...ids, query })).hits.map((h) => h.eventId).sort();
}

/** The shards the store saved: read here, as another tab could. */
async function savedShardCount(dbName: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const count = await new Promise<number>((resolve, reject) => {
    const request = db.transaction('searchShards').objectStore('searchShards').count();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return count;
}

it('catches up, after the worker was terminated, with every append it acknowledged', async () => {
  const dbName = uniqueDbName('search-crash');
  names.push(dbName);
  const first = dedicatedClient(dbName);
  const session = await first.client.createSession({ ...ids, sessionId: 'trip' });
  await first.client.appendEvent({ session, event: textEvent('a', '東京のホテルを予約しました') });
  expect(await hitsOf(first.client, 'ホテル')).toEqual(['a']);
  // Its index is saved once the store has been quiet for 2 s.
  await expect.poll(() => savedShardCount(dbName), { timeout: 15_000 }).toBe(1);

  // Acknowledged, then the worker dies before it reads them for its index (or saves it again).
  await first.client.appendEvent({ session, event: textEvent('b', 'Die Hotelrechnung für Zürich') });
  await first.client.appendEvent({ session, event: textEvent('a', '北京的酒店已经订好了') });
  first.worker.terminate();

  const second = dedicatedClient(dbName);
  clients.push(second.client);
  expect(await hitsOf(second.client, 'zurich')).toEqual(['b']);
  expect(await hitsOf(second.client, '酒店')).toEqual(['a']);
  expect(await hitsOf(second.client, 'ホテル')).toEqual([]);
});

it('finds, in a worker, what another tab’s worker writes', async () => {
  const dbName = uniqueDbName('search-tabs');
  names.push(dbName);
  const mine = dedicatedClient(dbName);
  const theirs = dedicatedClient(dbName);
  clients.push(mine.client, theirs.client);
  const session = await theirs.client.createSession({ ...ids, sessionId: 's' });
  await theirs.client.appendEvent({ session, event: textEvent('a', '서울에서 만나요') });
  expect(await hitsOf(mine.client, '서울')).toEqual(['a']);
  await theirs.client.appendEvent({ session, event: textEvent('b', '서울역 앞에서') });
  await expect.poll(() => hitsOf(mine.client, '서울'), { timeout: 10_000 }).toEqual(['a', 'b']);
});

it('folds whole words in Chromium’s worker as in Node: half-width katakana, Korean NFD, ß, final ς', async () => {
  const dbName = uniqueDbName('search-fold');
  names.push(dbName);
  const { client } = dedicatedClient(dbName);
  clients.push(client);
  const session = await client.createSession({ ...ids, sessionId: 's' });
  const texts: [string, string][] = [
    ['ja', 'ﾃﾞｰﾀﾍﾞｰｽの移行'],
    ['ko', '호텔 예약'.normalize('NFD')],
    ['de', 'Die Straße ist gesperrt'],
    ['el', 'Στην Ελλάδας'],
  ];
  for (const [id, text] of texts) await client.appendEvent({ session, event: textEvent(id, text) });
  expect(await hitsOf(client, 'データベース')).toEqual(['ja']);
  expect(await hitsOf(client, '호텔 예약')).toEqual(['ko']);
  expect(await hitsOf(client, 'strasse')).toEqual(['de']);
  expect(await hitsOf(client, 'ΕΛΛΑΔΑΣ')).toEqual(['el']);
});
