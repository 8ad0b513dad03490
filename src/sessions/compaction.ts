/**
 * Compaction events, and the read that starts at the latest one
 * (`GetSessionConfig.fromLatestCompaction`). Two shapes are compactions: adk-js's
 * (top-level `isCompacted: true`, the span it covers ending at `endTime`, epoch ms)
 * and adk-python's (`actions.compaction` with `endTimestamp`, seconds; written
 * `end_timestamp` where no camelCase conversion ran). The read returns what
 * adk-js's context builder (`getActiveEvents`) keeps of the whole history: the
 * latest compaction, every event appended after it, and every other event
 * appended before it that is later than the span it covers. It reads only those:
 * a backward cursor that stops at the compaction, then the time index above the
 * span's end. Worker-side only: the page never loads this module.
 */
import { bound, type Store } from '../database/idb/index.js';
import { type EventRecord, eventOf, type StoreSchema } from '../database/records/index.js';
import type { Event } from '../types.js';

type EventStore = Store<StoreSchema['events']>;

/** Below this a time is in seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

/**
 * Where the span a compaction event covers ends, in the unit of the event's own
 * `timestamp`; `undefined` when the event is no compaction. One with no numeric
 * end covers everything before it (`+Infinity`), as ADK's comparison with a
 * missing end keeps none of it.
 */
export function compactionEnd(event: Event): number | undefined {
  const e = event as Event & { isCompacted?: unknown; endTime?: unknown };
  if (e.isCompacted === true) return typeof e.endTime === 'number' ? e.endTime : Number.POSITIVE_INFINITY;
  const compaction = (event.actions as { compaction?: unknown } | undefined)?.compaction;
  if (typeof compaction !== 'object' || compaction === null) return undefined;
  const c = compaction as { endTimestamp?: unknown; end_timestamp?: unknown };
  const end = c.endTimestamp ?? c.end_timestamp;
  if (typeof end !== 'number') return Number.POSITIVE_INFINITY;
  // adk-python's times are seconds; an event this store stamped in milliseconds compares in those.
  return event.timestamp >= SECONDS_BELOW && end < SECONDS_BELOW ? end * 1000 : end;
}

/**
 * Whether a stored record may hold a compaction. Inside a JSON string every `"`
 * is escaped, so these keys followed by `":` occur in the text only as keys:
 * most records are ruled out without being parsed.
 */
const mayBeCompaction = (record: EventRecord): boolean =>
  record.json === undefined || record.json.includes('"isCompacted":true') || record.json.includes('"compaction":');

/**
 * The records `fromLatestCompaction` selects from incarnation `uid`, in append
 * order: every record when the session holds no compaction.
 */
export async function readFromLatestCompaction(store: EventStore, uid: string): Promise<EventRecord[]> {
  const after: EventRecord[] = [];
  let cursor = await store.openCursor(bound([uid, 0], [uid, Number.POSITIVE_INFINITY]), 'prev');
  let end: number | undefined;
  let at: EventRecord | undefined;
  while (cursor) {
    const record = cursor.value;
    end = mayBeCompaction(record) ? compactionEnd(eventOf(record)) : undefined;
    if (end !== undefined) {
      at = record;
      break;
    }
    after.push(record);
    cursor = await cursor.continue();
  }
  after.reverse();
  if (!at || end === undefined) return after;
  const compaction = at;
  const before = Number.isFinite(end)
    ? (await store.index('byTime').getAll(bound([uid, end], [uid, Number.POSITIVE_INFINITY], true))).filter(
        (r) => r.seq < compaction.seq && !(mayBeCompaction(r) && compactionEnd(eventOf(r)) !== undefined),
      )
    : [];
  before.sort((a, b) => a.seq - b.seq);
  return [...before, compaction, ...after];
}
