/**
 * Contender 3: the event store most apps would write on Dexie, following its
 * docs: a table per kind, one `add` per event, state in its own table updated
 * by key path per event, each append one `db.transaction('rw', ...)`; bulk
 * fixtures with `bulkAdd`. Transactions are `relaxed` like every contender's.
 */
import Dexie, { type Table } from 'dexie';
import type { Event } from '../src/index.js';
import type { Contender, ListedRow, SessionAddress, SessionData } from './contender.js';
import { listingState, makeEvent, stateAfter } from './events.js';

interface DexieSession {
  appName: string;
  userId: string;
  id: string;
  lastUpdateTime: number;
  eventCount: number;
}

interface DexieEvent {
  pk?: number;
  sessionId: string;
  seq: number;
  event: Event;
}

interface DexieState {
  sessionId: string;
  values: Record<string, unknown>;
}

type Key = [string, string, string];

type SessionDb = Dexie & {
  sessions: Table<DexieSession, Key>;
  events: Table<DexieEvent, number>;
  states: Table<DexieState, string>;
};

const sessionIdOf = (a: SessionAddress): string => `${a.appName}/${a.userId}/${a.sessionId}`;
const keyOf = (a: SessionAddress): Key => [a.appName, a.userId, a.sessionId];

/** A delta as Dexie key-path changes, so `update` sets those keys and leaves the rest. */
const changesOf = (delta: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(delta).map(([k, v]) => [`values.${k}`, v]));

const BULK_CHUNK = 10_000;

export class DexieStore implements Contender<SessionAddress> {
  readonly id = 'dexie' as const;
  private readonly db: SessionDb;

  constructor(name: string) {
    this.db = new Dexie(name, { chromeTransactionDurability: 'relaxed' }) as SessionDb;
    this.db.version(1).stores({
      sessions: '[appName+userId+id], [appName+userId+lastUpdateTime]',
      events: '++pk, [sessionId+seq]',
      states: 'sessionId',
    });
  }

  async open(): Promise<void> {
    await this.db.open();
  }

  async createSession(address: SessionAddress, state: Record<string, unknown> = {}): Promise<SessionAddress> {
    const { db } = this;
    await db.transaction('rw', [db.sessions, db.states], async () => {
      await db.sessions.add({
        appName: address.appName,
        userId: address.userId,
        id: address.sessionId,
        lastUpdateTime: Date.now(),
        eventCount: 0,
      });
      await db.states.add({ sessionId: sessionIdOf(address), values: { ...state } });
    });
    return address;
  }

  async append(address: SessionAddress, event: Event): Promise<void> {
    const { db } = this;
    const sessionId = sessionIdOf(address);
    await db.transaction('rw', [db.sessions, db.events, db.states], async () => {
      const session = await db.sessions.get(keyOf(address));
      if (!session) throw new Error(`dexie: no session ${address.sessionId}`);
      await db.events.add({ sessionId, seq: session.eventCount, event });
      await db.sessions.update(keyOf(address), {
        eventCount: session.eventCount + 1,
        lastUpdateTime: event.timestamp,
      });
      const delta = event.actions?.stateDelta;
      if (delta) await db.states.update(sessionId, changesOf(delta));
    });
  }

  async getSession(address: SessionAddress, recent?: number): Promise<SessionData> {
    const { db } = this;
    const sessionId = sessionIdOf(address);
    return db.transaction('r', [db.sessions, db.events, db.states], async () => {
      const range = db.events.where('[sessionId+seq]').between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey]);
      const [session, state, rows] = await Promise.all([
        db.sessions.get(keyOf(address)),
        db.states.get(sessionId),
        recent === undefined ? range.toArray() : range.reverse().limit(recent).toArray(),
      ]);
      if (!session || !state) throw new Error(`dexie: no session ${address.sessionId}`);
      const events = rows.map((r) => r.event);
      return { events: recent === undefined ? events : events.reverse(), state: state.values };
    });
  }

  async listRecent(appName: string, userId: string, limit: number): Promise<ListedRow[]> {
    const { db } = this;
    return db.transaction('r', [db.sessions, db.states], async () => {
      const sessions = await db.sessions
        .where('[appName+userId+lastUpdateTime]')
        .between([appName, userId, Dexie.minKey], [appName, userId, Dexie.maxKey])
        .reverse()
        .limit(limit)
        .toArray();
      const states = await db.states.bulkGet(sessions.map((s) => sessionIdOf({ appName, userId, sessionId: s.id })));
      return sessions.map((s, i) => ({ id: s.id, lastUpdateTime: s.lastUpdateTime, state: states[i]?.values ?? {} }));
    });
  }

  async buildSession(address: SessionAddress, sessionNo: number, count: number, t0: number): Promise<void> {
    const { db } = this;
    const sessionId = sessionIdOf(address);
    await db.transaction('rw', [db.sessions, db.events, db.states], async () => {
      for (let from = 0; from < count; from += BULK_CHUNK) {
        const rows: DexieEvent[] = [];
        for (let seq = from; seq < Math.min(count, from + BULK_CHUNK); seq++) {
          rows.push({ sessionId, seq, event: makeEvent(sessionNo, seq, t0) });
        }
        await db.events.bulkAdd(rows);
      }
      await db.sessions.put({
        appName: address.appName,
        userId: address.userId,
        id: address.sessionId,
        lastUpdateTime: t0 + count - 1,
        eventCount: count,
      });
      await db.states.put({ sessionId, values: stateAfter(sessionNo, count, t0) });
    });
  }

  async buildSessions(appName: string, userId: string, count: number, t0: number): Promise<void> {
    const { db } = this;
    const ids = Array.from({ length: count }, (_, i) => i);
    await db.transaction('rw', [db.sessions, db.states], async () => {
      await db.sessions.bulkAdd(
        ids.map((i) => ({ appName, userId, id: `s${i}`, lastUpdateTime: t0 + i, eventCount: 0 })),
      );
      await db.states.bulkAdd(
        ids.map((i) => ({ sessionId: sessionIdOf({ appName, userId, sessionId: `s${i}` }), values: listingState(i) })),
      );
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
