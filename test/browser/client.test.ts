/**
 * The worker client in a real browser: what fake-indexeddb and a MessageChannel
 * cannot show. Several clients stand for several tabs: each has its own worker
 * (or its own connection to the one SharedWorker) and its own connection to the
 * database, as separate tabs do.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Event,
  openSessionStore,
  type Session,
  type SessionService,
  type SessionStoreClient,
  StaleSessionError,
  type StoreChange,
  StoreClosedError,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';
import { dedicatedClient, deleteDatabase, sharedClient, uniqueDbName } from './helpers.js';

const APP = 'app';
const USER = 'u';
const key = (sessionId: string) => ({ appName: APP, userId: USER, sessionId });

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

function track<T extends { close(): Promise<void> }>(store: T): T {
  cleanup.push(() => store.close());
  return store;
}

/** Appends `count` events tagged `tag`, reloading and retrying on StaleSessionError. Returns the ids stored. */
async function writer(store: SessionService, sessionId: string, tag: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let session = (await store.getSession(key(sessionId))) as Session;
  for (let i = 0; i < count; i++) {
    const event = makeEvent({ id: `${tag}-${i}`, stateDelta: { [tag]: i } });
    for (;;) {
      try {
        await store.appendEvent({ session, event });
        break;
      } catch (error) {
        if (!(error instanceof StaleSessionError)) throw error;
        session = (await store.getSession(key(sessionId))) as Session;
      }
    }
    ids.push(event.id);
  }
  return ids;
}

describe.each([
  ['dedicated workers', (db: string) => dedicatedClient(db).client],
  ['one SharedWorker', (db: string) => sharedClient(db)],
])('two tabs over %s', (_, connect) => {
  it('append concurrently to one session: nothing lost or duplicated, each writer in order', async () => {
    const dbName = uniqueDbName('tabs');
    cleanup.push(() => deleteDatabase(dbName));
    const [tab1, tab2] = [track(connect(dbName)), track(connect(dbName))] as [SessionStoreClient, SessionStoreClient];
    await tab1.createSession(key('s'));
    const [a, b] = await Promise.all([writer(tab1, 's', 'a', 40), writer(tab2, 's', 'b', 40)]);
    const stored = (await tab2.getSession(key('s'))) as Session;
    const ids = stored.events.map((e) => e.id);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
    expect(ids.filter((id) => id.startsWith('a-'))).toEqual(a);
    expect(ids.filter((id) => id.startsWith('b-'))).toEqual(b);
    expect(stored.state).toEqual({ a: 39, b: 39 });
  });

  it('rejects the stale writer and stores nothing of its append', async () => {
    const dbName = uniqueDbName('stale');
    cleanup.push(() => deleteDatabase(dbName));
    const [tab1, tab2] = [track(connect(dbName)), track(connect(dbName))] as [SessionStoreClient, SessionStoreClient];
    const old = await tab1.createSession(key('s'));
    const fresh = (await tab2.getSession(key('s'))) as Session;
    await tab2.appendEvent({ session: fresh, event: makeEvent({ id: 'fresh' }) });
    await expect(
      tab1.appendEvent({ session: old, event: makeEvent({ id: 'stale', stateDelta: { x: 1 } }) }),
    ).rejects.toBeInstanceOf(StaleSessionError);
    const stored = (await tab1.getSession(key('s'))) as Session;
    expect(stored.events.map((e) => e.id)).toEqual(['fresh']);
    expect(stored.state).toEqual({});
  });

  it("hear each other's changes live", async () => {
    const dbName = uniqueDbName('live');
    cleanup.push(() => deleteDatabase(dbName));
    const [tab1, tab2] = [track(connect(dbName)), track(connect(dbName))] as [SessionStoreClient, SessionStoreClient];
    const heard: StoreChange[] = [];
    const stop = tab1.subscribe({ appName: APP, userId: USER }, (c) => heard.push(c));
    cleanup.push(async () => stop());
    await tab1.ready;
    const session = await tab2.createSession(key('s'));
    await tab2.appendEvent({ session, event: makeEvent({ id: 'live-1' }) });
    await tab2.deleteSession(key('s'));
    await vi.waitFor(() => expect(heard.map((c) => c.type)).toEqual(['created', 'appended', 'deleted']));
    expect(heard[1]).toMatchObject({ sessionId: 's', revision: 1, eventIds: ['live-1'] });
  });
});

describe('a worker terminated mid-stream', () => {
  it('rejects pending calls with StoreClosedError and keeps every append that resolved, whole', async () => {
    const dbName = uniqueDbName('crash');
    cleanup.push(() => deleteDatabase(dbName));
    const { client, worker } = dedicatedClient(dbName);
    const session = await client.createSession(key('s'));
    const events: Event[] = Array.from({ length: 400 }, (_, i) =>
      makeEvent({ id: `e${i}`, stateDelta: { [`k${i}`]: i, last: i, 'user:last': i } }),
    );
    const resolved: string[] = [];
    const outcomes: Promise<unknown>[] = [];
    // A stream: ten appends per task, so batches are small and many are in flight when the worker dies.
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as Event;
      outcomes.push(
        client.appendEvent({ session, event }).then(
          () => {
            resolved.push(event.id);
            if (resolved.length === 50) worker.terminate();
            return null;
          },
          (error: unknown) => error,
        ),
      );
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const failures = (await Promise.all(outcomes)).filter((outcome) => outcome !== null);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toBeInstanceOf(StoreClosedError);

    const reopened = track(dedicatedClient(dbName).client);
    const stored = (await reopened.getSession(key('s'))) as Session;
    const storedIds = stored.events.map((e) => e.id);
    // Every acknowledged append is there, in order; anything beyond is a whole, later prefix.
    expect(storedIds.slice(0, resolved.length)).toEqual(resolved);
    expect(storedIds).toEqual(events.slice(0, storedIds.length).map((e) => e.id));
    // No event without its state change, and no state change without its event.
    const folded: Record<string, unknown> = {};
    for (const e of stored.events) Object.assign(folded, e.actions?.stateDelta);
    const sessionScope = Object.fromEntries(Object.entries(folded).filter(([k]) => !k.startsWith('user:')));
    expect(Object.fromEntries(Object.entries(stored.state).filter(([k]) => !k.startsWith('user:')))).toEqual(
      sessionScope,
    );
    expect(stored.state['user:last']).toBe(storedIds.length - 1);
    await reopened.appendEvent({ session: stored, event: makeEvent({ id: 'after-crash' }) });
  });
});

describe('a worker that never says goodbye', () => {
  it('close() lets it go after 10 s, as if it had died: calls it left unanswered reject with StoreClosedError', async () => {
    const worker = new Worker(new URL('./fixtures/silent-goodbye-worker.ts', import.meta.url), { type: 'module' });
    const store = openSessionStore({ worker });
    await store.ready;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let closed = false;
      const unanswered = store.listApps().catch((error: unknown) => error);
      const closing = store.close().then(() => {
        closed = true;
      });
      await vi.advanceTimersByTimeAsync(9_000);
      expect(closed).toBe(false);
      await vi.advanceTimersByTimeAsync(1_000);
      for (let turn = 0; turn < 10 && !closed; turn++) await Promise.resolve();
      expect(closed).toBe(true);
      await closing;
      expect(await unanswered).toBeInstanceOf(StoreClosedError);
      await expect(store.listApps()).rejects.toBeInstanceOf(StoreClosedError);
    } finally {
      vi.useRealTimers();
      worker.terminate();
    }
  });
});
