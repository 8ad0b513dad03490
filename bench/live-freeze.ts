/**
 * What freezing a delivered session costs: a 10,000-event session read whole
 * (`getSession`, as a live query's first read does), then deep-frozen.
 * `npx tsx bench/live-freeze.ts` (Node, fake-indexeddb); medians of 7 runs.
 */
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbSessionService } from '../src/index.js';
import { deepFreeze } from '../src/live/frozen.js';
import { makeEvent } from '../test/contract/contract.js';
import { median } from './stats.js';

const EVENTS = 10_000;
const store = new IndexedDbSessionService({ dbName: 'freeze', indexedDB: new IDBFactory() });
const key = { appName: 'chat', userId: 'ada', sessionId: 'long' };
const session = await store.createSession(key);
for (let i = 0; i < EVENTS; i += 500) {
  const events = Array.from({ length: 500 }, (_, j) =>
    makeEvent({ stateDelta: { turn: i + j }, content: { role: 'model', parts: [{ text: 'word '.repeat(40) }] } }),
  );
  await store.appendEvents({ session, events });
}
const reads: number[] = [];
const freezes: number[] = [];
for (let run = 0; run < 7; run++) {
  const t0 = performance.now();
  const read = await store.getSession(key);
  const t1 = performance.now();
  deepFreeze(read);
  freezes.push(performance.now() - t1);
  reads.push(t1 - t0);
}
console.log(
  `${EVENTS} events: getSession ${median(reads).toFixed(1)} ms, deepFreeze ${median(freezes).toFixed(1)} ms (median of 7)`,
);
await store.close();
