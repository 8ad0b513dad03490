/**
 * The compaction suite (test/contract/compaction.ts) in Node, in-thread and through a worker's
 * port; and what `fromLatestCompaction` reads, counted under the store.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { type Event, IndexedDbSessionService } from '../../../src/index.js';
import {
  adkActiveEvents,
  describeCompactionEvents,
  ids,
  jsCompaction,
  key,
  plain,
  T,
} from '../../contract/compaction.js';
import { installReadCounter } from '../read-counter.js';
import { storeKinds } from '../store-kinds.js';

for (const [where, open] of storeKinds('compaction')) describeCompactionEvents(where, open);

describe('fromLatestCompaction read cost', () => {
  const counter = installReadCounter();
  const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'compaction-cost' });
  afterAll(async () => {
    counter.restore();
    await store.close();
  });

  it('reads about the events it returns, not the session’s 3,000', async () => {
    const session = await store.createSession(key('long'));
    const events: Event[] = Array.from({ length: 3000 }, (_, i) => plain(i));
    // A compaction covering up to e2979, appended after e2989: e2980..e2989 stay, e2990.. follow it.
    events.splice(2990, 0, jsCompaction('c', T + 2990 * 1000, T, T + 2979 * 1000));
    for (let i = 0; i < events.length; i += 500)
      await store.appendEvents({ session, events: events.slice(i, i + 500) });
    const full = await counter.measure(() => store.getSession(key('long')));
    const { result, reads } = await counter.measure(() =>
      store.getSession({ ...key('long'), config: { fromLatestCompaction: true } }),
    );
    expect(result?.events).toHaveLength(21);
    expect(ids(adkActiveEvents(result?.events ?? []))).toEqual(ids(adkActiveEvents(full.result?.events ?? [])));
    // 21 events, those after the compaction read twice (cursor, then time index), three state records.
    expect(reads.values + reads.keys).toBeLessThanOrEqual(40);
    expect(full.reads.values).toBeGreaterThanOrEqual(3001);
  }, 60_000);
});
