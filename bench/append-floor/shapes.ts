/** The ways the append-floor bench writes the awaited-appends workload (page.ts runs them, run.ts reports them). */

/** Each way's milliseconds; the ways are named in `WAYS`. */
export type FloorTimes = Record<Way, number>;

/**
 * The ways of writing, besides the limit and the store: what an append does by hand in one
 * transaction per round, and the same with parts of its work left out or reshaped.
 */
export const SHAPES = {
  /** Read the session record, put the event (two indexes) and the record (two listing indexes). */
  floor: { read: true, record: 'indexed', eventIndexes: 2 },
  /** The same without the record's read. */
  noRead: { read: false, record: 'indexed', eventIndexes: 2 },
  /** The record without its state (a small head record), still with its two listing indexes. */
  smallRecord: { read: true, record: 'small-indexed', eventIndexes: 2 },
  /** A small head record with one listing index (by user and time). */
  oneListing: { read: true, record: 'small-one-index', eventIndexes: 2 },
  /** A small head record with no index: listings would read every head and sort. */
  headOnly: { read: true, record: 'small', eventIndexes: 2 },
  /** A small unindexed head; the events keep only their id index. */
  headById: { read: true, record: 'small', eventIndexes: 1 },
  /** The events alone (two indexes), no session record at all. */
  eventsOnly: { read: false, record: 'none', eventIndexes: 2 },
  /** The events alone with no index: the cost of a transaction and a put. */
  bare: { read: false, record: 'none', eventIndexes: 0 },
} as const;
export type Shape = (typeof SHAPES)[keyof typeof SHAPES];
/**
 * `limit`: every event in one transaction as the raw contender writes them (no index, the records
 * once); `shapedLimit`: the same in one transaction, in the store's shape (events as JSON text with
 * their two indexes, each session's record with its state and two listing indexes, once): the
 * floor of appends issued all at once, which group commit writes in one transaction.
 */
export const WAYS = [
  'limit',
  'shapedLimit',
  ...(Object.keys(SHAPES) as (keyof typeof SHAPES)[]),
  /** Each session's appends each in a transaction of its own (read the record, put the event and the record). */
  'txPerEvent',
  'store',
] as const;
export type Way = (typeof WAYS)[number];

/**
 * The append-cost-by-state cases: a session keeping `sessionKb` of its own state and its user
 * `userKb`, each append setting one key (`step`, or `user:step`). An append should cost the same
 * in every case: it writes what it changes, not the state kept.
 */
export const STATE_CASES = [
  { name: 'session0.2KB', sessionKb: 0.2, userKb: 0, deltaPrefix: '' },
  { name: 'session50KB', sessionKb: 50, userKb: 0, deltaPrefix: '' },
  { name: 'session500KB', sessionKb: 500, userKb: 0, deltaPrefix: '' },
  { name: 'user500KB', sessionKb: 0.2, userKb: 500, deltaPrefix: 'user:' },
] as const;
/** Each case's append p50, ms; `rawPut`: a raw single put of the same event in a transaction of its own. */
export type StateTimes = Record<(typeof STATE_CASES)[number]['name'] | 'rawPut', number>;
