/**
 * The page of the append-floor bench (run.ts): the awaited-appends workload (sessions each
 * awaiting their appends) written four ways in one page, against one origin's IndexedDB.
 */
import { IndexedDbSessionService } from '../../src/index.js';
import { makeEvents } from '../events.js';

export interface FloorTimes {
  /** Every event in one transaction, sessions' records once: the raw contender's limit. */
  limit: number;
  /** An append's work by hand, one transaction per round: read the record, put the event and the record. */
  floor: number;
  /** The same without the record's read. */
  noRead: number;
  /** The events alone, in the same rounds: no session record at all. */
  eventsOnly: number;
  /** The store in this thread, each session awaiting its `appendEvent`s. */
  store: number;
}

declare global {
  interface Window {
    appendFloor: { run(sessions: number, events: number): Promise<FloorTimes> };
  }
}

const relaxed = { durability: 'relaxed' } as const;

/** A database with the store's sessions and events stores and indexes (src/store/database.ts), or the raw contender's. */
function open(name: string, storeShape: boolean): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      const sessions = db.createObjectStore('sessions', { keyPath: ['appName', 'userId', 'id'] });
      if (storeShape) {
        sessions.createIndex('byAppTime', ['appName', 'lastUpdateTime', 'id', 'userId'], { unique: true });
        sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime', 'id'], { unique: true });
        const events = db.createObjectStore('events', { keyPath: ['uid', 'seq'] });
        events.createIndex('byId', ['uid', 'id'], { unique: true });
        events.createIndex('byTime', ['uid', 'timestamp']);
      } else {
        sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime']);
        db.createObjectStore('events');
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const committed = (tx: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });

const record = (s: number, seq: number, lastUpdateTime: number, state: Record<string, unknown>) => ({
  appName: 'a',
  userId: 'u',
  id: `s${s}`,
  uid: `uid${s}`,
  lastUpdateTime,
  revision: seq,
  nextSeq: seq,
  state,
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

    const raw = await open(`limit-${tag}`, false);
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

    const rounds = async (read: boolean, writeRecord: boolean): Promise<number> => {
      const db = await open(`floor-${read}-${writeRecord}-${tag}`, true);
      const setup = db.transaction('sessions', 'readwrite');
      for (let s = 0; s < sessions; s++) setup.objectStore('sessions').put(record(s, 0, 0, {}));
      await committed(setup);
      return timed(db, async () => {
        for (let seq = 0; seq < count; seq++) {
          const tx = db.transaction(['events', 'sessions'], 'readwrite', relaxed);
          events.forEach((list, s) => {
            const event = list[seq] as (typeof list)[number];
            if (read) tx.objectStore('sessions').get(['a', 'u', `s${s}`]);
            tx.objectStore('events').put({
              uid: `uid${s}`,
              seq,
              id: event.id,
              timestamp: event.timestamp,
              json: JSON.stringify(event),
            });
            if (writeRecord) {
              tx.objectStore('sessions').put(record(s, seq + 1, event.timestamp, event.actions?.stateDelta ?? {}));
            }
          });
          await committed(tx);
        }
      });
    };
    const floor = await rounds(true, true);
    const noRead = await rounds(false, true);
    const eventsOnly = await rounds(false, false);

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
    return { limit, floor, noRead, eventsOnly, store };
  },
};
