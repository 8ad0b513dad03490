/**
 * Read cost must not grow with history (design.md, "Data model"): ADK's own
 * stores load every event on `getSession` and scan every session to list, which
 * takes seconds at a few thousand events. These tests count the records
 * fake-indexeddb hands back, so a change that turns a key-range read into a
 * scan fails here even when it is still fast on a small database.
 *
 * Stores get fake-indexeddb's own IDBKeyRange: the native range reads browsers
 * run, not the cursor steps the store falls back to with a bare factory.
 *
 * The long session has 100,000 events by default; READ_COST_EVENTS overrides
 * it (for a quicker local run, or a larger stress run).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Event, IndexedDbSessionService, type Session } from '../../src/index.js';
import { installReadCounter, type ReadTally } from './read-counter.js';

const LONG = Number(process.env.READ_COST_EVENTS ?? 100_000);
const SHORT = 1_000;
/**
 * Appends are fired without awaiting each, so they group-commit; but every append
 * also scans `session.events` of the object it updates in place (replace-by-id),
 * so one object that collects all 100,000 events costs O(n^2) (measured: 51 s
 * for 100,000 in one go, 5 s in chunks). Each chunk therefore goes through a
 * fresh, event-less copy of the session.
 */
const CHUNK = 5_000;
const BASE_TIME = 1_700_000_000_000;
const APP = 'read-cost';
const USER = 'u';
const USERS_OF_WORKLOAD = ['w-ada', 'w-bob', 'w-cy'];

const counter = installReadCounter();
afterAll(() => counter.restore());

const total = (t: ReadTally): number => t.values + t.keys;
const describeReads = (t: ReadTally): string =>
  `values ${t.values}, keys ${t.keys}, by source ${JSON.stringify([...t.bySource])}`;

/** Two events per millisecond: ties are the normal case (the ADK Runner stamps several events at once). */
function eventAt(i: number): Event {
  return {
    id: `e${i}`,
    invocationId: `inv-${Math.floor(i / 4)}`,
    author: i % 2 ? 'model' : 'user',
    timestamp: BASE_TIME + Math.floor(i / 2),
    content: { role: i % 2 ? 'model' : 'user', parts: [{ text: `message ${i}` }] },
    actions: {
      stateDelta: i % 100 === 0 ? { turn: i } : {},
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    },
  };
}

async function buildSession(store: IndexedDbSessionService, sessionId: string, count: number): Promise<void> {
  await store.createSession({ appName: APP, userId: USER, sessionId });
  for (let start = 0; start < count; start += CHUNK) {
    const session = await store.getSession({
      appName: APP,
      userId: USER,
      sessionId,
      config: { numRecentEvents: 0 },
    });
    if (!session) throw new Error(`session ${sessionId} vanished while building it`);
    const appends: Promise<Event>[] = [];
    for (let i = start; i < Math.min(count, start + CHUNK); i++) {
      appends.push(store.appendEvent({ session, event: eventAt(i) }));
    }
    await Promise.all(appends);
  }
}

/** The first event sharing event i's millisecond (see `eventAt`). */
const firstTiedWith = (i: number): number => i - (i % 2);
const ids = (events: Event[]): string[] => events.map((e) => e.id);
const range = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, k) => `e${from + k}`);

describe('getSession read cost', () => {
  let store: IndexedDbSessionService;

  beforeAll(async () => {
    store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'read-cost-events' });
    const started = performance.now();
    await buildSession(store, 'long', LONG);
    const built = performance.now();
    await buildSession(store, 'short', SHORT);
    console.info(
      `built a ${LONG}-event session in ${Math.round(built - started)} ms (chunks of ${CHUNK}), ` +
        `a ${SHORT}-event one in ${Math.round(performance.now() - built)} ms`,
    );
  }, 300_000);

  afterAll(() => store.close());

  const get = (sessionId: string, config?: { numRecentEvents?: number; afterTimestamp?: number }) =>
    counter.measure(() => store.getSession({ appName: APP, userId: USER, sessionId, ...(config ? { config } : {}) }));

  it('counts every record a full load hands back (the counter is live)', async () => {
    // Without this, a counter that saw nothing would make every bound below pass.
    const { result, reads } = await get('short');
    expect(result?.events).toHaveLength(SHORT);
    expect(reads.values).toBeGreaterThanOrEqual(SHORT);
  });

  it(`numRecentEvents: 50 reads about 50 records from a ${LONG}-event session`, async () => {
    const { result, reads } = await get('long', { numRecentEvents: 50 });
    expect(ids(result?.events ?? [])).toEqual(range(LONG - 50, LONG));
    // 50 events plus the session, app and user records; a scan would read LONG.
    expect(total(reads), describeReads(reads)).toBeLessThanOrEqual(60);
  });

  it(`numRecentEvents: 50 reads the same number of records at ${SHORT} events as at ${LONG}`, async () => {
    const long = await get('long', { numRecentEvents: 50 });
    const short = await get('short', { numRecentEvents: 50 });
    expect(ids(short.result?.events ?? [])).toEqual(range(SHORT - 50, SHORT));
    expect(total(long.reads), `long: ${describeReads(long.reads)}`).toBe(total(short.reads));
  });

  it('numRecentEvents keeps full state however few events it reads', async () => {
    // State comes from the scope records, never from replaying events: a window must not lose it.
    const { result } = await get('long', { numRecentEvents: 1 });
    expect(result?.state).toEqual({ turn: Math.floor((LONG - 1) / 100) * 100 });
  });

  it('afterTimestamp near the end reads about as many records as it returns, in append order', async () => {
    // Cutting at an event's time keeps its tied partner too, whichever side of it that is.
    const from = LONG - 31;
    const { result, reads } = await get('long', { afterTimestamp: eventAt(from).timestamp });
    const expected = range(firstTiedWith(from), LONG);
    expect(ids(result?.events ?? [])).toEqual(expected);
    expect(total(reads), describeReads(reads)).toBeLessThanOrEqual(expected.length + 5);
  });

  it('afterTimestamp with numRecentEvents reads about the smaller window', async () => {
    const { result, reads } = await get('long', {
      numRecentEvents: 20,
      afterTimestamp: eventAt(LONG - 10).timestamp,
    });
    expect(ids(result?.events ?? [])).toEqual(range(firstTiedWith(LONG - 10), LONG));
    expect(total(reads), describeReads(reads)).toBeLessThanOrEqual(25);
  });
});

// fake-indexeddb steps an index cursor slowly (~0.5 ms a key here), so a deep page takes a second or more on a busy machine.
describe('listSessions read cost', { timeout: 30_000 }, () => {
  const USERS = ['ada', 'bob', 'cy', 'dee'];
  const SESSIONS = 2_000;
  /** 2,000 sessions over 250 distinct times: ties of about 8 everywhere. */
  const DISTINCT_TIMES = 250;
  let store: IndexedDbSessionService;
  let all: Session[];

  beforeAll(async () => {
    store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'read-cost-sessions' });
    const created: Promise<Session>[] = [];
    for (let k = 0; k < SESSIONS; k++) {
      // Ids whose order is unrelated to creation order or time, so a tie-break bug shows.
      const id = `s-${((k * 7919) % SESSIONS).toString().padStart(4, '0')}`;
      created.push(store.createSession({ appName: APP, userId: USERS[k % USERS.length] as string, sessionId: id }));
    }
    all = await Promise.all(created);
    // Every session gets an event at one of a few shared times: creation times would tie
    // too, but all in one millisecond, making one tie group as large as the fixture.
    await Promise.all(
      all.map((session, k) =>
        store.appendEvent({
          session,
          event: { ...eventAt(k), timestamp: BASE_TIME + ((k * 37) % DISTINCT_TIMES) * 1000 },
        }),
      ),
    );
  }, 120_000);

  afterAll(() => store.close());

  /** The contract's order, computed from the session objects the appends updated in place. */
  const expectedOrder = (sessions: Session[], order: 'asc' | 'desc'): string[] =>
    [...sessions]
      .sort(
        (a, b) =>
          (a.lastUpdateTime - b.lastUpdateTime) * (order === 'asc' ? 1 : -1) ||
          (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .map((s) => `${s.userId}/${s.id}@${s.lastUpdateTime}`);
  const listed = (sessions: Session[]): string[] => sessions.map((s) => `${s.userId}/${s.id}@${s.lastUpdateTime}`);
  const largestTie = (sessions: Session[]): number => {
    const sizes = new Map<number, number>();
    for (const s of sessions) sizes.set(s.lastUpdateTime, (sizes.get(s.lastUpdateTime) ?? 0) + 1);
    return Math.max(...sizes.values());
  };

  it('has many ties to order (the fixture is meaningful)', () => {
    expect(largestTie(all)).toBeGreaterThanOrEqual(5);
  });

  for (const order of ['desc', 'asc'] as const) {
    for (const page of [1, 2, 20, 35]) {
      it(`${order} page ${page} of 50 over ${SESSIONS} sessions is right and reads about one page of records`, async () => {
        const { result, reads } = await counter.measure(() =>
          store.listSessions({ appName: APP, limit: 50, page, order }),
        );
        const offset = (page - 1) * 50;
        expect(listed(result.sessions)).toEqual(expectedOrder(all, order).slice(offset, offset + 50));
        expect(result).toMatchObject({ page, limit: 50, totalItems: SESSIONS, totalPages: SESSIONS / 50 });
        // Values: the page, the tie group it starts in, one record past its end, the app and user records.
        expect(reads.values, describeReads(reads)).toBeLessThanOrEqual(50 + largestTie(all) + 1 + 1 + USERS.length);
        // Keys: stepping to the page start costs at most the offset (a key walk, no values), never the whole index.
        expect(total(reads), describeReads(reads)).toBeLessThanOrEqual(offset + 2 * 50 + largestTie(all) + 10);
      });
    }
  }

  it("one user's desc page reads about one page of records and is right", async () => {
    const user = USERS[1] as string;
    const mine = all.filter((s) => s.userId === user);
    const { result, reads } = await counter.measure(() =>
      store.listSessions({ appName: APP, userId: user, limit: 50, order: 'desc' }),
    );
    expect(listed(result.sessions)).toEqual(expectedOrder(mine, 'desc').slice(0, 50));
    expect(result.totalItems).toBe(mine.length);
    expect(total(reads), describeReads(reads)).toBeLessThanOrEqual(50 + largestTie(mine) + 10);
  });
});

describe('count() on events', () => {
  it('the counter records count() calls and their source (so an empty list means none happened)', async () => {
    const indexedDB = new IDBFactory();
    const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'count-probe' });
    await store.createSession({ appName: APP, userId: USER, sessionId: 's' });
    await store.close();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('count-probe');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const { reads } = await counter.measure(
      () =>
        new Promise<void>((resolve) => {
          const tx = db.transaction('events');
          tx.objectStore('events').count();
          tx.objectStore('events').index('byTime').count();
          tx.oncomplete = () => resolve();
        }),
    );
    db.close();
    expect(reads.counts).toEqual(['events', 'events.byTime']);
  });

  it('is never called on the events store or its indexes during a whole workload', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'count-workload' });
    const stop = counter.start();
    const sessions: Session[] = [];
    for (let k = 0; k < 30; k++) {
      sessions.push(
        await store.createSession({
          appName: APP,
          userId: USERS_OF_WORKLOAD[k % 3] as string,
          sessionId: `w${k}`,
          state: { 'app:a': k, 'user:u': k, own: k },
        }),
      );
    }
    await Promise.all(
      sessions.flatMap((session, k) =>
        Array.from({ length: 40 }, (_, i) =>
          store.appendEvent({
            session,
            event: {
              ...eventAt(i),
              id: `w${k}-e${i}`,
              actions: { stateDelta: { 'app:n': i, 'user:n': i, n: i, 'temp:t': i } },
            },
          }),
        ),
      ),
    );
    // An append that replaces a stored event by id takes the byId index path.
    const first = sessions[0] as Session;
    await store.appendEvent({ session: first, event: { ...eventAt(3), id: 'w0-e3' } });
    for (const session of sessions.slice(0, 5)) {
      const key = { appName: APP, userId: session.userId, sessionId: session.id };
      for (const config of [
        undefined,
        { numRecentEvents: 0 },
        { numRecentEvents: 7 },
        { numRecentEvents: 1_000 },
        { afterTimestamp: BASE_TIME + 10 },
        { afterTimestamp: BASE_TIME + 10, numRecentEvents: 5 },
      ]) {
        await store.getSession(config ? { ...key, config } : key);
      }
      await store.getOrCreateSession({ ...key });
    }
    for (const order of [undefined, 'asc', 'desc'] as const) {
      for (const userId of [undefined, 'w-ada']) {
        const base = { appName: APP, ...(userId ? { userId } : {}), ...(order ? { order } : {}) };
        await store.listSessions(base);
        await store.listSessions({ ...base, limit: 4 });
        await store.listSessions({ ...base, limit: 4, page: 3 });
        await store.listSessions({ ...base, offset: 5 });
      }
    }
    await store.getAppState({ appName: APP });
    await store.getUserState({ appName: APP, userId: 'w-ada' });
    for (const session of sessions.slice(0, 10)) {
      await store.deleteSession({ appName: APP, userId: session.userId, sessionId: session.id });
    }
    await store.close();
    const reads = stop();
    expect(reads.values).toBeGreaterThan(0);
    expect(reads.counts.filter((source) => source.startsWith('events'))).toEqual([]);
  });
});
