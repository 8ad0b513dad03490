/**
 * Reads whose cost must not grow with history: a window of recent events is a
 * key-range read over the dense per-session sequence, `afterTimestamp` uses the
 * timestamp index, and a page of a listing walks the time index from the page's
 * start rather than scanning every session.
 */

import { mergeState, type StateRecord } from '../core/state.js';
import { bound, handled, type Index, type Store, type Tx } from '../database/idb/index.js';
import {
  type EventRecord,
  eventsText,
  type SessionRecord,
  type StoreName,
  type StoreSchema,
  type UserRecord,
} from '../database/records/index.js';
import { appScope, readSessionState, readState, userScope } from '../database/records/state.js';
import type { GetSessionConfig, GetSessionRequest, Session } from '../types.js';
import { loadedCompaction } from './later.js';
import type { LoadedSession } from './protocol.js';

type ReadTx = Tx<StoreSchema, StoreName>;
type EventStore = Store<StoreSchema['events']>;

const bySeq = (a: EventRecord, b: EventRecord): number => a.seq - b.seq;

/** The last `n` events of a session, in append order. Reads about `n` records. */
async function lastEvents(store: EventStore, rec: SessionRecord, n: number): Promise<EventRecord[]> {
  const expected = Math.min(n, rec.eventCount);
  const from = Math.max(0, rec.nextSeq - n);
  const window = await store.getAll(bound([rec.uid, from], [rec.uid, Number.POSITIVE_INFINITY]));
  if (window.length >= expected) return window;
  // Sequence numbers are dense by construction; should a gap ever appear, walk back instead.
  const found: EventRecord[] = [];
  let cursor = await store.openCursor(bound([rec.uid, 0], [rec.uid, Number.POSITIVE_INFINITY]), 'prev');
  while (cursor && found.length < n) {
    found.push(cursor.value);
    cursor = await cursor.continue();
  }
  return found.reverse();
}

/**
 * The events `config` selects from incarnation `uid`, in append order, when
 * that takes nothing but the uid; `undefined` for a window of recent events,
 * which is placed by the session record's counter (a backward read of `n`
 * records would not need it, but is slower than the forward range read).
 */
export function readEventsOf(
  tx: ReadTx,
  uid: string,
  config: GetSessionConfig | undefined,
): Promise<EventRecord[]> | undefined {
  const store = tx.objectStore('events');
  const n = config?.numRecentEvents;
  const after = config?.afterTimestamp;
  if (n === 0) return Promise.resolve([]);
  if (config?.fromLatestCompaction) {
    return loadedCompaction()
      .readFromLatestCompaction(store, uid)
      .then((records) => {
        const kept = after === undefined ? records : records.filter((r) => r.timestamp >= after);
        return n === undefined ? kept : kept.slice(-n);
      });
  }
  if (n !== undefined) return undefined;
  if (after !== undefined) {
    const range = bound([uid, after], [uid, Number.POSITIVE_INFINITY]);
    return store
      .index('byTime')
      .getAll(range)
      .then((records) => records.sort(bySeq));
  }
  return store.getAll(bound([uid, 0], [uid, Number.POSITIVE_INFINITY]));
}

/** Where a session's events ended when this engine last saw it: enough to place a read before its record arrives. */
export interface Place {
  uid: string;
  /** The record's `nextSeq` then, when known. */
  nextSeq?: number;
}

/** How many events a session may have gained since its place was taken for a window read ahead to still find the newest. */
const AHEAD_SLACK = 64;

/**
 * The events `config` selects, read in the same round as the session record,
 * from where the session was last seen (`place`). The returned function takes the
 * record once it arrives and gives the events, or `undefined` when the record shows
 * the read misplaced (another incarnation, or more than `AHEAD_SLACK` events newer
 * than the place): then `readEvents` must read again. Sequence numbers only grow
 * within an incarnation, so a window read from an older place starts early enough;
 * it holds the window when it holds all of the window's records.
 */
export function readAhead(
  tx: ReadTx,
  place: Place,
  config: GetSessionConfig | undefined,
): ((record: SessionRecord) => Promise<EventRecord[] | undefined>) | undefined {
  const { uid, nextSeq } = place;
  const direct = readEventsOf(tx, uid, config);
  if (direct) {
    // A misplaced read is dropped, and so is its failure.
    direct.catch(() => {});
    return async (record) => (record.uid === uid ? direct : undefined);
  }
  if (nextSeq === undefined) return undefined;
  const n = config?.numRecentEvents ?? 0;
  const ahead = tx
    .objectStore('events')
    .getAll(bound([uid, Math.max(0, nextSeq - n)], [uid, Number.POSITIVE_INFINITY]), n + AHEAD_SLACK);
  ahead.catch(() => {});
  return async (record) => {
    if (record.uid !== uid) return undefined;
    const from = record.nextSeq - n;
    const window = (await ahead).filter((r) => r.seq >= from);
    if (window.length < Math.min(n, record.eventCount)) return undefined;
    const after = config?.afterTimestamp;
    return after === undefined ? window : window.filter((r) => r.timestamp >= after);
  };
}

/** The events `config` selects, in append order (never by timestamp). */
export async function readEvents(
  tx: ReadTx,
  rec: SessionRecord,
  config: GetSessionConfig | undefined,
): Promise<EventRecord[]> {
  const direct = readEventsOf(tx, rec.uid, config);
  if (direct) return direct;
  const recent = await lastEvents(tx.objectStore('events'), rec, config?.numRecentEvents ?? 0);
  const after = config?.afterTimestamp;
  return after === undefined ? recent : recent.filter((r) => r.timestamp >= after);
}

/** A session as one read transaction saw it: its head, its own state, the shared scopes' and the events asked for. */
export interface SessionRead {
  record: SessionRecord;
  state: StateRecord;
  app: StateRecord;
  user: StateRecord;
  events: EventRecord[];
}

/**
 * Reads a session in `tx` (a read-only transaction over `ALL_STORES`): its record and
 * both shared scopes' state in one round, its events in the same round when `place`
 * says where they are (see `readAhead`), else in the next. The engine and the page's
 * first reads (./first-read.ts) both read so, and answer alike. A read from the latest
 * compaction needs its code loaded first (`loadCompaction`).
 */
export async function readSessionIn(
  tx: ReadTx,
  request: GetSessionRequest,
  place: Place | undefined,
): Promise<SessionRead | undefined> {
  const { appName, userId, sessionId, config } = request;
  const state = tx.objectStore('state');
  const reads = Promise.all([
    tx.objectStore('sessions').get([appName, userId, sessionId]),
    readState(state, appScope(appName)),
    readState(state, userScope(appName, userId)),
  ]);
  const ahead = place && readAhead(tx, place, config);
  const [record, app, user] = await reads;
  if (!record) return undefined;
  // A session's heavy keys, if it has any, are read alongside its events.
  const own = handled(readSessionState(state, record));
  const events = (await ahead?.(record)) ?? (await readEvents(tx, record, config));
  return { record, state: await own, app, user, events };
}

/** A read as `getSession` answers across a worker: the events as the text of one JSON array (`eventsJson`). */
export function loadedAsText(read: SessionRead): LoadedSession {
  return { ...toLoaded(read.record, read.state, read.app, read.user, []), eventsJson: eventsText(read.events) };
}

type TimeIndex = Index<
  SessionRecord,
  [string, number, string, string] | [string, string, number, string],
  [string, string, string]
>;

/**
 * Pages this large (or unbounded) read the whole range once and sort, instead of
 * walking a cursor. Only the page's size counts: a deep page still reaches its
 * start by a key walk, so it reads `limit` records, not every session.
 */
const CURSOR_PAGE_LIMIT = 1000;

const byTimeThenId =
  (direction: 1 | -1) =>
  (a: SessionRecord, b: SessionRecord): number =>
    (a.lastUpdateTime - b.lastUpdateTime) * direction ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
    (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);

/**
 * The newest `take` sessions in one backward read of `take + 1` records. Every
 * group of equal times but the last is then whole; when the page ends inside a
 * group (the record after it has the same time) that group is read whole too,
 * so its ties can be put in id order.
 */
async function newestPage(
  newest: Promise<SessionRecord[]>,
  index: TimeIndex,
  prefix: string[],
  take: number,
): Promise<SessionRecord[]> {
  let records = await newest;
  const last = records[take - 1];
  const after = records[take];
  if (last && after && last.lastUpdateTime === after.lastUpdateTime) {
    const time = last.lastUpdateTime;
    const group = await index.getAll(bound([...prefix, time], [...prefix, time, []]));
    records = [...records.filter((r) => r.lastUpdateTime !== time), ...group];
  }
  return records.sort(byTimeThenId(-1)).slice(0, take);
}

/**
 * One page of sessions under `prefix` (`[appName]` or `[appName, userId]`) of a
 * time index, ordered by `lastUpdateTime` (ascending or descending) with ties
 * always by id ascending. Reads about `offset + take` index keys and `take` records.
 */
export async function readPage(
  index: TimeIndex,
  prefix: string[],
  direction: 'asc' | 'desc',
  offset: number,
  take: number,
): Promise<SessionRecord[]> {
  if (take === 0) return [];
  const all = bound(prefix, [...prefix, []]);
  if (take > CURSOR_PAGE_LIMIT) {
    const records = await index.getAll(all);
    return records.sort(byTimeThenId(direction === 'asc' ? 1 : -1)).slice(offset, offset + take);
  }
  if (direction === 'asc') {
    // The index order is already (time, id) ascending: jump to the page's first key and read on.
    if (offset === 0) return index.getAll(all, take);
    const cursor = await index.openKeyCursor(all);
    const start = cursor && (await cursor.advance(offset));
    if (!start) return [];
    return index.getAll(bound(start.key, [...prefix, []]), take);
  }
  const newest = offset === 0 ? index.getAllRecords(all, take + 1, 'prev') : undefined;
  if (newest) return newestPage(newest, index, prefix, take);
  // Descending: a reverse walk yields ties by id descending, so each group of equal
  // times is gathered whole and reordered. Find the time at the page's start and how
  // far into its group the page starts, then collect from the start of that group.
  const first = await index.openKeyCursor(all, 'prev');
  const start = first && offset > 0 ? await first.advance(offset) : first;
  if (!start) return [];
  const startTime = start.key[prefix.length] as number;
  const groupTop = [...prefix, startTime, []];
  // The walk passed exactly the newer sessions and the group's keys above `start`;
  // counting only the latter keeps this to one tie group, not a second walk of the offset.
  const skip = await index.count(bound(start.key, groupTop, true, false));
  const collected: SessionRecord[] = [];
  let group: SessionRecord[] = [];
  const flush = (): void => {
    collected.push(...group.sort(byTimeThenId(-1)));
    group = [];
  };
  let cursor = await index.openCursor(bound(prefix, groupTop), 'prev');
  while (cursor) {
    const record = cursor.value;
    if (group.length > 0 && (group[0] as SessionRecord).lastUpdateTime !== record.lastUpdateTime) {
      flush();
      if (collected.length >= skip + take) break;
    }
    group.push(record);
    cursor = await cursor.continue();
  }
  flush();
  return collected.slice(skip, skip + take);
}

type UserStore = Store<StoreSchema['userState']>;

/** One page of an app's user records, by `userId` ascending. Reads about `offset + take` keys and `take` records. */
export async function readUsers(
  store: UserStore,
  appName: string,
  offset: number,
  take: number | undefined,
): Promise<UserRecord[]> {
  if (take === 0) return [];
  const all = bound([appName], [appName, []]);
  if (offset === 0) return store.getAll(all, take);
  const cursor = await store.openKeyCursor(all);
  const start = cursor && (await cursor.advance(offset));
  if (!start) return [];
  return store.getAll(bound(start.key, [appName, []]), take);
}

export type { ReadTx };

export function toLoaded(
  record: SessionRecord,
  state: StateRecord,
  app: StateRecord,
  user: StateRecord,
  events: Session['events'],
): LoadedSession {
  return {
    session: {
      id: record.id,
      appName: record.appName,
      userId: record.userId,
      state: mergeState(app, user, state),
      events,
      lastUpdateTime: record.lastUpdateTime,
    },
    ref: { uid: record.uid, revision: record.revision },
  };
}

/** A listing's page numbers: by `page` and `limit` when given, else the page `start` falls in; one page of everything without a limit. */
export function pageOf(
  limit: number | undefined,
  page: number | undefined,
  start: number,
  totalItems: number,
): { page: number; limit: number; totalItems: number; totalPages: number } {
  if (limit === undefined) return { page: 1, limit: totalItems, totalItems, totalPages: totalItems === 0 ? 0 : 1 };
  return {
    page: page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1),
    limit,
    totalItems,
    totalPages: limit === 0 ? 0 : Math.ceil(totalItems / limit),
  };
}
