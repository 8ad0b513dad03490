/**
 * The new event paths where another tab is involved: a live query with `fromLatestCompaction`
 * follows a new compaction written elsewhere, and two tabs sealing one session at once append
 * the sealing events once.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { type Event, IndexedDbSessionService, watchSession } from '../../../src/index.js';
import { ids, jsCompaction, key, plain, T } from '../../contract/compaction.js';
import { collect } from '../../live/helpers.js';

let n = 0;
const opened: IndexedDbSessionService[] = [];
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const store of opened.splice(0)) await store.close();
});

function twoTabs() {
  const indexedDB = new IDBFactory();
  const dbName = `events-tabs-${n++}`;
  const tabs = [0, 1].map(() => new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName }));
  opened.push(...tabs);
  return tabs as [IndexedDbSessionService, IndexedDbSessionService];
}

describe('another tab', () => {
  it('a live query with fromLatestCompaction starts again at a compaction written by another tab', async () => {
    const [reader, writer] = twoTabs();
    const session = await writer.createSession(key('live'));
    await writer.appendEvents({ session, events: [plain(0), plain(1), plain(2)] });
    const live = collect(watchSession(reader, { ...key('live'), config: { fromLatestCompaction: true } }));
    stops.push(live.stop);
    await expect.poll(() => live.values.length).toBe(1);
    expect(ids(live.values[0]?.events)).toEqual(['e0', 'e1', 'e2']);
    await writer.appendEvent({ session, event: plain(3) });
    await expect.poll(() => ids(live.values.at(-1)?.events)).toEqual(['e0', 'e1', 'e2', 'e3']);
    await writer.appendEvent({ session, event: jsCompaction('c', T + 4000, T, T + 1000) });
    await expect.poll(() => ids(live.values.at(-1)?.events)).toEqual(['e2', 'e3', 'c']);
    await writer.appendEvent({ session, event: plain(5) });
    await expect.poll(() => ids(live.values.at(-1)?.events)).toEqual(['e2', 'e3', 'c', 'e5']);
  });

  it('two tabs sealing one session at once append its sealing events once', async () => {
    const [a, b] = twoTabs();
    const session = await a.createSession(key('race'));
    const call: Event = {
      id: 'call',
      invocationId: 'inv',
      author: 'agent',
      timestamp: T,
      content: { role: 'model', parts: [{ functionCall: { id: 'f1', name: 'tool', args: {} } }] },
    };
    await a.appendEvent({ session, event: call });
    const [first, second] = await Promise.all([a.sealInterrupted(key('race')), b.sealInterrupted(key('race'))]);
    expect([first.length, second.length].sort()).toEqual([0, 1]);
    const stored = await b.getSession(key('race'));
    expect(stored?.events.map((e) => e.errorCode ?? e.id)).toEqual(['call', 'INVOCATION_ABORTED']);
  });
});
