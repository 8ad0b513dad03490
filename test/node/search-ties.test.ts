/**
 * Equal scores come back in one order, newest first, whatever order the index
 * was built in: in the store that wrote them, after a restart that rebuilds
 * the index from the events, after one that loads the saved index, and in
 * memory after another store over the same database rebuilt its index.
 */
import { afterEach, expect, it } from 'vitest';
import type { IndexedDbSessionService } from '../../src/index.js';
import { type SearchEngine, searchEngineFor } from '../../src/search/engine.js';
import { freshDatabase, textEvent } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const open: IndexedDbSessionService[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

/** Same text, so the same score, written in an order that is neither oldest nor newest first. */
const written: [string, string, number][] = [
  ['b', 'middle', 2_000],
  ['c', 'newest', 3_000],
  ['a', 'oldest', 1_000],
];
const newestFirst = ['newest', 'middle', 'oldest'];

it('orders equal search scores newest first, before and after a restart', async () => {
  const db = freshDatabase();
  const first = db.open();
  // Each in its own session, written in that order, so neither sessions nor sequence numbers give it.
  for (const [sessionId, id, timestamp] of written) {
    const session = await first.createSession({ ...ids, sessionId });
    await first.appendEvent({ session, event: textEvent(id, 'the boarding pass', 'user', timestamp) });
  }
  const order = async (store: IndexedDbSessionService) =>
    (await store.searchEvents({ ...ids, query: 'boarding pass' })).hits.map((h) => h.eventId);
  expect(await order(first)).toEqual(newestFirst);
  await first.close();
  // No index saved: the next store builds it from the events, in its own order.
  const rebuilt = db.open();
  open.push(rebuilt);
  expect(await order(rebuilt)).toEqual(newestFirst);
  await (searchEngineFor(rebuilt.engine) as SearchEngine).flush();
  const loaded = db.open();
  open.push(loaded);
  expect(await order(loaded)).toEqual(newestFirst);
});

it('orders equal memory scores newest first, in another store over the same database too', async () => {
  const db = freshDatabase();
  const first = db.open();
  const other = db.open();
  open.push(first, other);
  for (const [sessionId, id, timestamp] of written) {
    await first.memory.addEventsToMemory({
      ...ids,
      sessionId,
      events: [textEvent(id, 'my passport number', 'user', timestamp)],
    });
  }
  const order = async (store: IndexedDbSessionService) =>
    (await store.memory.searchMemory({ ...ids, query: 'passport number' })).memories.map((m) => m.eventId);
  expect(await order(first)).toEqual(newestFirst);
  // The other store reads the records in key order (by session id), not in the order they were added.
  expect(await order(other)).toEqual(newestFirst);
});
