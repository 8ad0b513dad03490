/**
 * The page of the compaction bench (run.ts): one long session with a compaction near its end,
 * read whole and with `fromLatestCompaction`, in this thread on the page's IndexedDB. Counts the
 * event records IndexedDB hands the store (every `getAll` result and cursor step on the events
 * store and its indexes), so the row shows what was read, not only how long it took.
 */
import { type Event, IndexedDbSessionService } from '../../src/index.js';

export interface CompactionRead {
  fullMs: number;
  fullRecords: number;
  fullEvents: number;
  latestMs: number;
  latestRecords: number;
  latestEvents: number;
}

declare global {
  interface Window {
    compactionBench: {
      build(events: number, after: number, retained: number): Promise<void>;
      read(): Promise<CompactionRead>;
    };
  }
}

let counted = 0;
const isEvents = (source: IDBObjectStore | IDBIndex): boolean =>
  ('objectStore' in source ? source.objectStore.name : source.name) === 'events';
for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
  const getAll = proto.getAll;
  proto.getAll = function (this: IDBObjectStore & IDBIndex, ...args: Parameters<IDBObjectStore['getAll']>) {
    const request = getAll.apply(this, args);
    if (isEvents(this))
      request.addEventListener('success', () => {
        counted += request.result.length;
      });
    return request;
  } as typeof proto.getAll;
  const openCursor = proto.openCursor;
  proto.openCursor = function (this: IDBObjectStore & IDBIndex, ...args: Parameters<IDBObjectStore['openCursor']>) {
    const request = openCursor.apply(this, args);
    if (isEvents(this))
      request.addEventListener('success', () => {
        counted += request.result ? 1 : 0;
      });
    return request;
  } as typeof proto.openCursor;
}

const T0 = 1_700_000_000_000;
const key = { appName: 'bench', userId: 'u', sessionId: 'long' };
const plain = (i: number): Event => ({
  id: `e${i}`,
  invocationId: `inv${i >> 2}`,
  author: i % 2 ? 'agent' : 'user',
  timestamp: T0 + i * 10,
  content: { role: i % 2 ? 'model' : 'user', parts: [{ text: `message ${i} `.repeat(20) }] },
  actions: { stateDelta: i % 50 === 0 ? { turn: i } : {}, artifactDelta: {} },
});

let store: IndexedDbSessionService | undefined;

window.compactionBench = {
  /** `events` events; a compaction appended before the last `after`, the `retained` before it later than its span. */
  async build(events, after, retained) {
    store = new IndexedDbSessionService({ dbName: `compaction-bench-${Date.now()}` });
    const session = await store.createSession(key);
    const all = Array.from({ length: events }, (_, i) => plain(i));
    const at = events - after;
    const compaction: Event = {
      id: 'compaction',
      invocationId: 'c',
      author: 'system',
      timestamp: T0 + at * 10 - 5,
      content: { role: 'model', parts: [{ text: 'summary' }] },
      isCompacted: true,
      startTime: T0,
      endTime: T0 + (at - retained - 1) * 10,
      compactedContent: 'summary',
    };
    all.splice(at, 0, compaction);
    for (let i = 0; i < all.length; i += 1000) {
      const fresh = { ...session, events: [] };
      await store.appendEvents({ session: fresh, events: all.slice(i, i + 1000), durability: 'relaxed' });
      session.lastUpdateTime = fresh.lastUpdateTime;
    }
  },
  async read() {
    if (!store) throw new Error('build first');
    const s = store;
    const measure = async (config?: { fromLatestCompaction: true }) => {
      counted = 0;
      const started = performance.now();
      const session = await s.getSession({ ...key, ...(config && { config }) });
      return { ms: performance.now() - started, records: counted, events: session?.events.length ?? 0 };
    };
    const full = await measure();
    const latest = await measure({ fromLatestCompaction: true });
    return {
      fullMs: full.ms,
      fullRecords: full.records,
      fullEvents: full.events,
      latestMs: latest.ms,
      latestRecords: latest.records,
      latestEvents: latest.events,
    };
  },
};
