/**
 * Databases written by earlier releases must open, read and take new writes
 * under the current code, and other connections must never make the store hang.
 *
 * Every check goes through the public API, never the store's records: a later
 * schema version may move data anywhere, as long as what a caller sees of a
 * database an older release wrote stays the same. When version N+1 arrives, add
 * a frozen `test/fixtures/vN+1-layout.ts` and an entry in `layouts` below; the
 * v1 entry stays, so every old layout keeps being upgraded from by every later
 * version, all the way to SCHEMA_VERSION.
 */
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, shippedUpgrades } from '../../src/database/open.js';
import { IndexedDbSessionService, type Session, StoreClosedError, UpgradeBlockedError } from '../../src/index.js';
import { BOB_TRIP_EVENTS, buildV1Database, describeLayout, TRIP_EVENTS, V1_VERSION } from '../fixtures/v1-layout.js';

const NAME = 'written-by-an-older-release';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Opens `name` raw, at its current version unless one is given. */
function openRaw(indexedDB: IDBFactory, name: string, version?: number): Promise<IDBDatabase> {
  return request(version === undefined ? indexedDB.open(name) : indexedDB.open(name, version));
}

async function versionOf(indexedDB: IDBFactory, name: string): Promise<number | undefined> {
  return (await indexedDB.databases()).find((d) => d.name === name)?.version;
}

const layouts = [{ version: V1_VERSION, build: buildV1Database }];

it('names in database/version.ts the version its upgrade steps lead to', () => {
  // The page's first reads check a database's version against it without loading the steps:
  // a step added without raising it would have them read a layout that is not theirs.
  expect(shippedUpgrades.length - 1).toBe(SCHEMA_VERSION);
});

describe.each(layouts)('a version-$version database written by an older release', ({ version, build }) => {
  let indexedDB: IDBFactory;
  let store: IndexedDbSessionService;
  const trip = { appName: 'chat', userId: 'ada', sessionId: 'trip' };

  beforeEach(async () => {
    indexedDB = new FakeIDBFactory();
    await build(indexedDB, NAME);
    store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
  });

  afterEach(() => store.close());

  it('is brought to SCHEMA_VERSION (at least 1) on first use', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    expect(await versionOf(indexedDB, NAME)).toBe(version);
    await store.getAppState({ appName: 'chat' });
    expect(await versionOf(indexedDB, NAME)).toBe(SCHEMA_VERSION);
  });

  it('has, once upgraded, the same layout as a database the current code creates', async () => {
    // Catches a fixture that drifted from what its release wrote, and an upgrade step that differs from a fresh create.
    await store.getAppState({ appName: 'chat' });
    const fresh = new IndexedDbSessionService({ indexedDB, dbName: 'fresh' });
    await fresh.getAppState({ appName: 'chat' });
    await fresh.close();
    await store.close();
    const [upgraded, created] = await Promise.all([openRaw(indexedDB, NAME), openRaw(indexedDB, 'fresh')]);
    expect(describeLayout(upgraded)).toEqual(describeLayout(created));
    upgraded.close();
    created.close();
  });

  it('returns every event unchanged, in append order despite tied and backward timestamps', async () => {
    const ada = await store.getSession(trip);
    expect(ada?.events).toEqual(TRIP_EVENTS);
    const bob = await store.getSession({ ...trip, userId: 'bob' });
    expect(bob?.events).toEqual(BOB_TRIP_EVENTS);
    const notes = await store.getSession({ appName: 'chat', userId: 'ada', sessionId: 'notes' });
    expect(notes).toMatchObject({ events: [], lastUpdateTime: 1_710_000_001_500 });
    expect(await store.getSession({ appName: 'mail', userId: 'bob', sessionId: 'inbox' })).toBeUndefined();
  });

  it('merges app, user and session state as stored without prefixes', async () => {
    expect((await store.getSession(trip))?.state).toEqual({
      destination: 'Lisbon',
      nights: 3,
      note: null,
      'app:theme': 'dark',
      'app:model': 'gemini',
      'user:home': 'Porto',
    });
    expect((await store.getSession({ ...trip, userId: 'bob' }))?.state).toEqual({
      destination: 'Oslo',
      'app:theme': 'dark',
      'app:model': 'gemini',
      'user:home': 'Bergen',
    });
    expect((await store.getSession({ appName: 'mail', userId: 'ada', sessionId: 'inbox' }))?.state).toEqual({
      unread: 2,
      'app:signature': '-- A',
    });
  });

  it('serves event windows from the stored counters and indexes', async () => {
    const last2 = await store.getSession({ ...trip, config: { numRecentEvents: 2 } });
    expect(last2?.events.map((e) => e.id)).toEqual(['trip-4', 'trip-5']);
    // trip-4 is earlier than its predecessors: afterTimestamp filters by time, yet keeps append order.
    const after = await store.getSession({ ...trip, config: { afterTimestamp: 1_710_000_000_999 } });
    expect(after?.events.map((e) => e.id)).toEqual(['trip-1', 'trip-2', 'trip-3', 'trip-4', 'trip-5']);
    const late = await store.getSession({ ...trip, config: { afterTimestamp: 1_710_000_001_000 } });
    expect(late?.events.map((e) => e.id)).toEqual(['trip-1', 'trip-2', 'trip-3', 'trip-5']);
  });

  it('lists from the stored counts and time indexes, ties by id', async () => {
    const byApp = await store.listSessions({ appName: 'chat', order: 'desc' });
    const keys = (sessions: Session[]) => sessions.map((s) => `${s.userId}/${s.id}`);
    // ada/notes and bob/trip tie at T+1500: "notes" < "trip".
    expect(keys(byApp.sessions)).toEqual(['ada/trip', 'ada/notes', 'bob/trip']);
    expect(byApp).toMatchObject({ totalItems: 3, totalPages: 1, page: 1, limit: 3 });
    expect(byApp.sessions.every((s) => s.events.length === 0)).toBe(true);
    expect(byApp.sessions[2]?.state).toMatchObject({ 'user:home': 'Bergen', 'app:theme': 'dark' });
    const ada = await store.listSessions({ appName: 'chat', userId: 'ada', limit: 1, page: 2 });
    expect(keys(ada.sessions)).toEqual(['ada/trip']);
    expect(ada).toMatchObject({ totalItems: 2, totalPages: 2 });
  });

  it('continues the sequence and the state with a new append, and sees stale copies as stale', async () => {
    const session = (await store.getSession(trip)) as Session;
    const stale = (await store.getSession(trip)) as Session;
    const appended = {
      id: 'trip-6',
      invocationId: 'inv-3',
      author: 'user',
      // Earlier than every stored event: only the stored counter can put it last.
      timestamp: 1_710_000_000_500,
      actions: { stateDelta: { nights: 4, 'user:home': 'Faro', 'app:theme': 'light' } },
    };
    await store.appendEvent({ session, event: structuredClone(appended) });
    const reloaded = await store.getSession(trip);
    // Events the older release stored as objects, and one stored now as JSON text, read together.
    expect(reloaded?.events).toEqual([...TRIP_EVENTS, appended]);
    expect(reloaded?.state).toMatchObject({ nights: 4, 'user:home': 'Faro', 'app:theme': 'light' });
    expect(reloaded?.lastUpdateTime).toBe(1_710_000_000_500);
    await expect(
      store.appendEvent({ session: stale, event: { id: 'x', invocationId: 'i', timestamp: 1_710_000_009_000 } }),
    ).rejects.toThrow(/modified in storage/);
  });

  it('deletes an old session with its events and creates a fresh one under its id', async () => {
    await store.deleteSession(trip);
    expect(await store.getSession(trip)).toBeUndefined();
    const again = await store.createSession({ appName: 'chat', userId: 'ada', sessionId: 'trip' });
    expect(again.events).toEqual([]);
    expect((await store.getSession(trip))?.events).toEqual([]);
    expect((await store.listSessions({ appName: 'chat' })).totalItems).toBe(3);
    expect((await store.getSession({ ...trip, userId: 'bob' }))?.events).toEqual(BOB_TRIP_EVENTS);
  });
});

/**
 * An IndexedDB that asks for `bump` versions more than the store does: how a
 * release with a higher SCHEMA_VERSION looks to a tab holding the current one.
 * With a single schema version there is no other way to raise `blocked` against
 * the store's own open (a database at version 0 has no connections to block it).
 * Once a version 2 exists, this can be replaced by opening a v1 fixture.
 */
function newerRelease(indexedDB: IDBFactory, bump: number): IDBFactory {
  return {
    open: (name: string, version?: number) => indexedDB.open(name, (version ?? 1) + bump),
    deleteDatabase: (name: string) => indexedDB.deleteDatabase(name),
    databases: () => indexedDB.databases(),
    cmp: (a: unknown, b: unknown) => indexedDB.cmp(a, b),
  };
}

describe('other connections', () => {
  let indexedDB: IDBFactory;
  const opened: { close(): unknown }[] = [];

  beforeEach(async () => {
    indexedDB = new FakeIDBFactory();
    await buildV1Database(indexedDB, NAME);
  });

  afterEach(async () => {
    for (const c of opened.splice(0)) await c.close();
  });

  it('a blocked upgrade rejects with UpgradeBlockedError after the timeout instead of hanging', async () => {
    // An older tab: no versionchange handler, so it never lets go.
    const holder = await openRaw(indexedDB, NAME);
    opened.push(holder);
    let asked = 0;
    holder.addEventListener('versionchange', () => asked++);
    const store = new IndexedDbSessionService({
      indexedDB: newerRelease(indexedDB, 1),
      dbName: NAME,
      blockedTimeoutMs: 150,
    });
    opened.push(store);
    const started = performance.now();
    const error = await store.getAppState({ appName: 'chat' }).catch((e: unknown) => e);
    const waited = performance.now() - started;
    expect(error).toBeInstanceOf(UpgradeBlockedError);
    expect(error).toMatchObject({ code: 'UPGRADE_BLOCKED', name: 'UpgradeBlockedError' });
    expect(asked).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(2_000);
  });

  it('after a blocked upgrade, the next call opens once the blocker is gone', async () => {
    const holder = await openRaw(indexedDB, NAME);
    const store = new IndexedDbSessionService({
      indexedDB: newerRelease(indexedDB, 1),
      dbName: NAME,
      blockedTimeoutMs: 50,
    });
    opened.push(store);
    await expect(store.getAppState({ appName: 'chat' })).rejects.toBeInstanceOf(UpgradeBlockedError);
    holder.close();
    // The abandoned open now runs its upgrade, and an open queued behind it waits on a clock of 50 ms
    // here: on a loaded machine the upgrade can outlast that. The store's next call comes after it.
    (await openRaw(indexedDB, NAME, SCHEMA_VERSION + 1)).close();
    expect(await store.getAppState({ appName: 'chat' })).toEqual({ theme: 'dark', model: 'gemini' });
    expect(await versionOf(indexedDB, NAME)).toBe(SCHEMA_VERSION + 1);
  });

  it('a connection that opens after its upgrade timed out is closed at once and blocks no one', async () => {
    const holder = await openRaw(indexedDB, NAME);
    const store = new IndexedDbSessionService({
      indexedDB: newerRelease(indexedDB, 1),
      dbName: NAME,
      blockedTimeoutMs: 50,
    });
    opened.push(store);
    await expect(store.getAppState({ appName: 'chat' })).rejects.toBeInstanceOf(UpgradeBlockedError);
    // Letting go lets the abandoned open complete; if it stayed open, the next upgrade would be blocked by it.
    holder.close();
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const next = indexedDB.open(NAME, SCHEMA_VERSION + 2);
      next.onsuccess = () => resolve(next.result);
      next.onerror = () => reject(next.error);
      next.onblocked = () => reject(new Error('the abandoned connection is still open and blocks the next upgrade'));
    });
    db.close();
    expect(db.version).toBe(SCHEMA_VERSION + 2);
  });

  it('deleting the database under an open store makes its next calls reject with StoreClosedError', async () => {
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
    opened.push(store);
    const session = (await store.getSession({ appName: 'chat', userId: 'ada', sessionId: 'trip' })) as Session;
    await new Promise<void>((resolve, reject) => {
      const deletion = indexedDB.deleteDatabase(NAME);
      deletion.onsuccess = () => resolve();
      deletion.onerror = () => reject(deletion.error);
      // The store must let go on versionchange; failing here beats hanging until the test times out.
      deletion.onblocked = () => reject(new Error('the store did not close its connection for the deletion'));
    });
    const calls = [
      store.getSession({ appName: 'chat', userId: 'ada', sessionId: 'trip' }),
      store.listSessions({ appName: 'chat' }),
      store.createSession({ appName: 'chat', userId: 'ada' }),
      store.appendEvent({ session, event: { id: 'late', invocationId: 'i', timestamp: 1_710_000_009_000 } }),
    ];
    for (const call of calls) {
      await expect(call).rejects.toBeInstanceOf(StoreClosedError);
      await expect(call).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    }
    // Nor may a call quietly re-create an empty database in its place.
    expect(await versionOf(indexedDB, NAME)).toBeUndefined();
  });

  it('an open queued behind a blocked deletion rejects with UpgradeBlockedError instead of hanging', async () => {
    // Another tab deletes the database while an older connection refuses to close: the deletion waits,
    // and a new open queues behind it without ever seeing a `blocked` event of its own.
    const holder = await openRaw(indexedDB, NAME);
    const deletion = indexedDB.deleteDatabase(NAME);
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME, blockedTimeoutMs: 100 });
    opened.push(store);
    await expect(store.getAppState({ appName: 'chat' })).rejects.toBeInstanceOf(UpgradeBlockedError);
    holder.close();
    await new Promise((resolve) => {
      deletion.onsuccess = resolve;
    });
  });

  it('a database written by a newer release is refused with StoreClosedError naming the cause', async () => {
    const newer = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(NAME, SCHEMA_VERSION + 5);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    newer.close();
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
    opened.push(store);
    const error = await store.getAppState({ appName: 'chat' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreClosedError);
    expect(String((error as Error).message)).toMatch(/newer release/);
  });
});
