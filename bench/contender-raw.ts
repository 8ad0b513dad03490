/**
 * Contenders 1 and 2: IndexedDB used directly, written for speed. The session
 * keeps its state in memory (it is the only writer), events are stored as they
 * are under out-of-line keys `[session, seq]`, reads issue every request at once.
 *
 * - `one-tx` is the physical limit: every write of a workload in one transaction.
 *   An awaited single append cannot share a transaction, so there it is one
 *   transaction holding a single put (the event only): the floor under any
 *   durable append, and the reference the sequential target names.
 * - `tx-per-event` is what a straightforward store does: per event, one
 *   transaction that puts the event and the updated session record.
 */
import type { Event } from '../src/index.js';
import type { Contender, ContenderId, ListedRow, SessionAddress, SessionData, SessionWrites } from './contender.js';
import { listingState, makeEvent, stateAfter } from './events.js';
import { committed, request } from './raw-idb.js';

interface RawSession {
  appName: string;
  userId: string;
  id: string;
  state: Record<string, unknown>;
  lastUpdateTime: number;
  eventCount: number;
}

export interface RawHandle {
  key: [string, string, string];
  record: RawSession;
}

const durability = { durability: 'relaxed' } as const;

const sid = (a: SessionAddress | RawSession): string =>
  `${a.appName}\u0000${a.userId}\u0000${'sessionId' in a ? a.sessionId : a.id}`;
const eventRange = (s: string, from: number): IDBKeyRange =>
  IDBKeyRange.bound([s, from], [s, Number.POSITIVE_INFINITY]);

/** `getAllRecords` (IndexedDB 3.1) reads a range backwards in one request; older engines walk a cursor. */
interface RecordsReader {
  getAllRecords?(options: {
    query?: IDBKeyRange;
    count?: number;
    direction?: IDBCursorDirection;
  }): IDBRequest<{ value: unknown }[]>;
}

async function lastValues<T>(source: IDBObjectStore | IDBIndex, range: IDBKeyRange, n: number): Promise<T[]> {
  const reader = source as unknown as RecordsReader;
  if (reader.getAllRecords) {
    const records = await request(reader.getAllRecords({ query: range, count: n, direction: 'prev' }));
    return records.map((r) => r.value as T);
  }
  const found: T[] = [];
  const cursorRequest = source.openCursor(range, 'prev');
  return new Promise((resolve, reject) => {
    cursorRequest.onerror = () => reject(cursorRequest.error);
    cursorRequest.onsuccess = () => {
      const cursor = cursorRequest.result;
      if (!cursor || found.length >= n) return resolve(found);
      found.push(cursor.value as T);
      cursor.continue();
    };
  });
}

function applyEvent(record: RawSession, event: Event): void {
  Object.assign(record.state, event.actions?.stateDelta);
  record.lastUpdateTime = event.timestamp;
  record.eventCount++;
}

export class RawStore implements Contender<RawHandle> {
  private constructor(
    readonly id: ContenderId,
    private readonly db: IDBDatabase,
  ) {}

  static async open(id: 'raw-one-tx' | 'raw-tx-per-event', name: string): Promise<RawStore> {
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      const sessions = db.createObjectStore('sessions', { keyPath: ['appName', 'userId', 'id'] });
      sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime']);
      db.createObjectStore('events');
    };
    return new RawStore(id, await request(opening));
  }

  async createSession(address: SessionAddress, state: Record<string, unknown> = {}): Promise<RawHandle> {
    const record: RawSession = {
      appName: address.appName,
      userId: address.userId,
      id: address.sessionId,
      state: { ...state },
      lastUpdateTime: Date.now(),
      eventCount: 0,
    };
    const tx = this.db.transaction('sessions', 'readwrite', durability);
    tx.objectStore('sessions').add(record);
    await committed(tx);
    return { key: [record.appName, record.userId, record.id], record };
  }

  /**
   * The in-memory record advances when the append is issued, not when it
   * commits: transactions commit in the order they were created, so appends
   * issued without awaiting each other still get consecutive keys.
   */
  async append(handle: RawHandle, event: Event): Promise<void> {
    const { record } = handle;
    const key = [sid(record), record.eventCount];
    if (this.id === 'raw-one-tx') {
      const tx = this.db.transaction('events', 'readwrite', durability);
      tx.objectStore('events').put(event, key);
      applyEvent(record, event);
      await committed(tx);
      return;
    }
    const tx = this.db.transaction(['events', 'sessions'], 'readwrite', durability);
    tx.objectStore('events').put(event, key);
    applyEvent(record, event);
    tx.objectStore('sessions').put(record);
    await committed(tx);
  }

  get createAll(): ((appName: string, userId: string, count: number) => Promise<void>) | undefined {
    return this.id === 'raw-one-tx'
      ? (appName, userId, count) => this.buildSessions(appName, userId, count, Date.now())
      : undefined;
  }

  get writeAll(): ((writes: SessionWrites<RawHandle>[]) => Promise<void>) | undefined {
    return this.id === 'raw-one-tx' ? (writes) => this.writeInOneTx(writes) : undefined;
  }

  private async writeInOneTx(writes: SessionWrites<RawHandle>[]): Promise<void> {
    const tx = this.db.transaction(['events', 'sessions'], 'readwrite', durability);
    const events = tx.objectStore('events');
    for (const { handle, events: list } of writes) {
      const s = sid(handle.record);
      for (const event of list) {
        events.put(event, [s, handle.record.eventCount]);
        applyEvent(handle.record, event);
      }
      tx.objectStore('sessions').put(handle.record);
    }
    await committed(tx);
  }

  async getSession(address: SessionAddress, recent?: number): Promise<SessionData> {
    const tx = this.db.transaction(['sessions', 'events'], 'readonly');
    const events = tx.objectStore('events');
    const range = eventRange(sid(address), 0);
    const [record, list] = await Promise.all([
      request(tx.objectStore('sessions').get([address.appName, address.userId, address.sessionId])),
      recent === undefined ? request(events.getAll(range)) : lastValues<Event>(events, range, recent),
    ]);
    if (!record) throw new Error(`raw: no session ${address.sessionId}`);
    return { events: recent === undefined ? list : list.reverse(), state: (record as RawSession).state };
  }

  async listRecent(appName: string, userId: string, limit: number): Promise<ListedRow[]> {
    const tx = this.db.transaction('sessions', 'readonly');
    const range = IDBKeyRange.bound([appName, userId], [appName, userId, []]);
    const rows = await lastValues<RawSession>(tx.objectStore('sessions').index('byUserTime'), range, limit);
    return rows.map((r) => ({ id: r.id, lastUpdateTime: r.lastUpdateTime, state: r.state }));
  }

  async buildSession(address: SessionAddress, sessionNo: number, count: number, t0: number): Promise<void> {
    const tx = this.db.transaction(['events', 'sessions'], 'readwrite', durability);
    const events = tx.objectStore('events');
    const s = sid(address);
    for (let seq = 0; seq < count; seq++) events.put(makeEvent(sessionNo, seq, t0), [s, seq]);
    const record: RawSession = {
      appName: address.appName,
      userId: address.userId,
      id: address.sessionId,
      state: stateAfter(sessionNo, count, t0),
      lastUpdateTime: t0 + count - 1,
      eventCount: count,
    };
    tx.objectStore('sessions').put(record);
    await committed(tx);
  }

  async buildSessions(appName: string, userId: string, count: number, t0: number): Promise<void> {
    const tx = this.db.transaction('sessions', 'readwrite', durability);
    const sessions = tx.objectStore('sessions');
    for (let i = 0; i < count; i++) {
      sessions.put({ appName, userId, id: `s${i}`, state: listingState(i), lastUpdateTime: t0 + i, eventCount: 0 });
    }
    await committed(tx);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
