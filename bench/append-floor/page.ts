/**
 * The page of the append-floor bench (run.ts): the awaited-appends workload (sessions each
 * awaiting their appends) written four ways in one page, against one origin's IndexedDB.
 */
import { type Event, IndexedDbSessionService, type Session } from '../../src/index.js';
import { makeEvents } from '../events.js';
import { committed, request } from '../raw-idb.js';
import { type FloorTimes, SHAPES, type Shape, STATE_CASES, type StateTimes, type Way } from './shapes.js';

declare global {
  interface Window {
    appendFloor: {
      run(sessions: number, events: number): Promise<FloorTimes>;
      stateAppends(appends: number): Promise<StateTimes>;
    };
  }
}

const relaxed = { durability: 'relaxed' } as const;

/** The raw contender's database (no shape), or one shaped as `shape` says. */
function open(name: string, shape?: Shape): Promise<IDBDatabase> {
  const opening = indexedDB.open(name, 1);
  opening.onupgradeneeded = () => {
    const db = opening.result;
    const sessions = db.createObjectStore('sessions', { keyPath: ['appName', 'userId', 'id'] });
    if (!shape) {
      sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime']);
      db.createObjectStore('events');
      return;
    }
    if (shape.record === 'indexed' || shape.record === 'small-indexed') {
      sessions.createIndex('byAppTime', ['appName', 'lastUpdateTime', 'id', 'userId'], { unique: true });
    }
    if (shape.record !== 'small' && shape.record !== 'none') {
      sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime', 'id'], { unique: true });
    }
    const events = db.createObjectStore('events', { keyPath: ['uid', 'seq'] });
    if (shape.eventIndexes >= 1) events.createIndex('byId', ['uid', 'id'], { unique: true });
    if (shape.eventIndexes >= 2) events.createIndex('byTime', ['uid', 'timestamp']);
  };
  return request(opening);
}

const record = (s: number, seq: number, lastUpdateTime: number, state?: Record<string, unknown>) => ({
  appName: 'a',
  userId: 'u',
  id: `s${s}`,
  uid: `uid${s}`,
  lastUpdateTime,
  revision: seq,
  nextSeq: seq,
  ...(state && { state }),
});

/** An event as the store keeps it (src/store/records.ts). */
const storedEvent = (s: number, seq: number, event: Event) => ({
  uid: `uid${s}`,
  seq,
  id: event.id,
  timestamp: event.timestamp,
  json: JSON.stringify(event),
});

async function timed(db: IDBDatabase, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  db.close();
  return ms;
}

window.appendFloor = {
  async run(sessions, count) {
    const events = Array.from({ length: sessions }, (_, s) => makeEvents(s, 0, count, 1000));
    const tag = `${Date.now()}-${Math.random()}`;

    const raw = await open(`limit-${tag}`);
    const limit = await timed(raw, async () => {
      const tx = raw.transaction(['events', 'sessions'], 'readwrite', relaxed);
      events.forEach((list, s) => {
        list.forEach((event, seq) => {
          tx.objectStore('events').put(event, [`s${s}`, seq]);
        });
        tx.objectStore('sessions').put(record(s, count, 1000 + count - 1, {}));
      });
      await committed(tx);
    });

    const shaped = await open(`shaped-${tag}`, SHAPES.floor);
    const shapedLimit = await timed(shaped, async () => {
      const tx = shaped.transaction(['events', 'sessions'], 'readwrite', relaxed);
      events.forEach((list, s) => {
        for (const [seq, event] of list.entries()) tx.objectStore('events').put(storedEvent(s, seq, event));
        const last = list.at(-1);
        tx.objectStore('sessions').put(record(s, count, last?.timestamp ?? 0, last?.actions?.stateDelta ?? {}));
      });
      await committed(tx);
    });

    const rounds = async (name: string, shape: Shape): Promise<number> => {
      const db = await open(`${name}-${tag}`, shape);
      const small = shape.record !== 'indexed';
      const setup = db.transaction('sessions', 'readwrite');
      for (let s = 0; s < sessions; s++) setup.objectStore('sessions').put(record(s, 0, 0, {}));
      await committed(setup);
      return timed(db, async () => {
        for (let seq = 0; seq < count; seq++) {
          const tx = db.transaction(['events', 'sessions'], 'readwrite', relaxed);
          events.forEach((list, s) => {
            const event = list[seq] as (typeof list)[number];
            if (shape.read) tx.objectStore('sessions').get(['a', 'u', `s${s}`]);
            tx.objectStore('events').put(storedEvent(s, seq, event));
            if (shape.record !== 'none') {
              const state = small ? undefined : (event.actions?.stateDelta ?? {});
              tx.objectStore('sessions').put(record(s, seq + 1, event.timestamp, state));
            }
          });
          await committed(tx);
        }
      });
    };
    const times: Partial<FloorTimes> = { limit, shapedLimit };
    for (const [name, shape] of Object.entries(SHAPES)) times[name as Way] = await rounds(name, shape);

    // What a store without group commit does: every session awaits a transaction per event.
    const perEvent = await open(`per-event-${tag}`, SHAPES.floor);
    const setup = perEvent.transaction('sessions', 'readwrite');
    for (let s = 0; s < sessions; s++) setup.objectStore('sessions').put(record(s, 0, 0, {}));
    await committed(setup);
    times.txPerEvent = await timed(perEvent, async () => {
      await Promise.all(
        events.map(async (list, s) => {
          for (const [seq, event] of list.entries()) {
            const tx = perEvent.transaction(['events', 'sessions'], 'readwrite', relaxed);
            const sessionsStore = tx.objectStore('sessions');
            await request(sessionsStore.get(['a', 'u', `s${s}`]));
            tx.objectStore('events').put(storedEvent(s, seq, event));
            sessionsStore.put(record(s, seq + 1, event.timestamp, event.actions?.stateDelta ?? {}));
            await committed(tx);
          }
        }),
      );
    });

    const service = new IndexedDbSessionService({ dbName: `store-${tag}` });
    const handles = await Promise.all(
      events.map((_, s) => service.createSession({ appName: 'a', userId: 'u', sessionId: `s${s}` })),
    );
    const started = performance.now();
    await Promise.all(
      handles.map(async (session, s) => {
        for (const event of events[s] ?? []) await service.appendEvent({ session, event });
      }),
    );
    const store = performance.now() - started;
    await service.close();
    times.store = store;
    return times as FloorTimes;
  },

  async stateAppends(appends) {
    const service = new IndexedDbSessionService({ dbName: `state-${Date.now()}-${Math.random()}` });
    // A state of `kb` KB in `keys` values, as an agent keeps documents and tool results.
    const stateOf = (kb: number, prefix: string) => {
      const state: Record<string, unknown> = {};
      const keys = Math.max(1, Math.round(kb / 10));
      for (let k = 0; k < keys; k++) state[`${prefix}doc${k}`] = 'x'.repeat(Math.round((kb * 1000) / keys));
      return state;
    };
    const sessions = await Promise.all(
      STATE_CASES.map((c, i) =>
        service.createSession({
          appName: 'a',
          // Each case its own user, so one case's user state is not another's.
          userId: `u${i}`,
          sessionId: c.name,
          state: { ...stateOf(c.sessionKb, ''), ...stateOf(c.userKb, 'user:') },
        }),
      ),
    );
    // The raw floor of one awaited append: one put of the event as the store keeps it, a transaction of its own.
    const raw = await open(`raw-put-${Date.now()}-${Math.random()}`, SHAPES.bare);
    const times = Object.fromEntries(
      [...STATE_CASES.map((c) => c.name), 'rawPut'].map((name) => [name, [] as number[]]),
    ) as Record<string, number[]>;
    // Interleaved: one append of each case in turn, so load from elsewhere falls on every case alike.
    for (let i = 0; i < appends; i++) {
      for (const [n, c] of STATE_CASES.entries()) {
        const event = {
          id: `e${i}`,
          invocationId: 'inv',
          author: 'agent',
          timestamp: 1000 + i,
          actions: { stateDelta: { [`${c.deltaPrefix}step`]: i } },
        };
        const started = performance.now();
        await service.appendEvent({ session: sessions[n] as Session, event });
        times[c.name]?.push(performance.now() - started);
      }
      const event = { id: `e${i}`, invocationId: 'inv', author: 'agent', timestamp: 1000 + i };
      const started = performance.now();
      const tx = raw.transaction('events', 'readwrite', relaxed);
      tx.objectStore('events').put(storedEvent(0, i, event));
      await committed(tx);
      times.rawPut?.push(performance.now() - started);
    }
    await service.close();
    raw.close();
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    return Object.fromEntries(Object.entries(times).map(([name, xs]) => [name, p50(xs)])) as StateTimes;
  },
};
