/**
 * A database written by the release before state was kept per key (schema
 * version 4) opens under the current code and answers through the public API
 * exactly what that release answered; a crash during the upgrade leaves the old
 * database, which the next open upgrades in full.
 */
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, SCHEMA_VERSION, shippedUpgrades } from '../../src/database/open.js';
import { IndexedDbSessionService, type Session } from '../../src/index.js';
import { dumpedLayout } from '../fixtures/dumped-layout.js';

const { version: V4_VERSION, read: V4_READ, build: buildV4Database } = dumpedLayout(4);
/** The step that keeps state per key (version 5). */
const STATE_STEP = 5;

const NAME = 'written-by-release-4';
// JSON text keeps a `__proto__` key as an own key on both sides of a comparison.
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** Everything the fixture's release read back, read again through `store`. */
async function readAll(store: IndexedDbSessionService): Promise<Record<string, unknown>> {
  const read: Record<string, unknown> = {};
  for (const key of Object.keys(V4_READ)) {
    const [kind, rest] = key.includes(':') ? (key.split(':') as [string, string]) : ['session', key];
    const [appName, userId, sessionId] = rest.split('/') as [string, string, string];
    if (kind === 'session') read[key] = plain(await store.getSession({ appName, userId, sessionId }));
    else if (kind === 'app') read[key] = plain(await store.getAppState({ appName }));
    else if (kind === 'user') read[key] = plain(await store.getUserState({ appName, userId }));
    else read[key] = plain(await store.listSessions({ appName }));
  }
  return read;
}

describe('a version-4 database (state kept whole) written by the previous release', () => {
  let indexedDB: IDBFactory;

  beforeEach(async () => {
    indexedDB = new FakeIDBFactory();
    await buildV4Database(indexedDB, NAME);
  });

  it('answers every session, event, state scope and listing as that release did', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThan(V4_VERSION);
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
    const read = await readAll(store);
    expect(read).toEqual(plain(V4_READ));
    // The fixture holds what the check needs: state in all three scopes (user state last set by a session
    // deleted since), a `__proto__` key, a deleted session.
    const notes = read['chat/ada/notes'] as Session;
    expect(Object.hasOwn(notes.state, '__proto__')).toBe(true);
    expect(notes.state).toMatchObject({ 'app:theme': 'dark', 'user:seen': 'gone-1', step: 3 });
    expect(read['chat/ada/gone']).toBeNull();
    await store.close();
  });

  it('takes appends after the upgrade: new keys join the converted ones, stale copies are refused', async () => {
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
    const key = { appName: 'mail', userId: 'bob', sessionId: 'inbox' };
    const session = (await store.getSession(key)) as Session;
    const stale = structuredClone(session);
    const before = V4_READ['mail/bob/inbox'] as Session;
    await store.appendEvent({
      session,
      event: {
        id: 'after',
        invocationId: 'i',
        timestamp: 1_730_000_000_000,
        actions: { stateDelta: { step: 9, 'user:x': 1 } },
      },
    });
    const reloaded = (await store.getSession(key)) as Session;
    expect(reloaded.state).toEqual({ ...before.state, step: 9, 'user:x': 1 });
    expect(reloaded.events.map((e) => e.id)).toEqual([...before.events.map((e) => e.id), 'after']);
    await expect(
      store.appendEvent({ session: stale, event: { id: 'late', invocationId: 'i', timestamp: 1_730_000_000_001 } }),
    ).rejects.toThrow(/modified in storage/);
    await store.close();
  });

  it('a crash part-way through the upgrade leaves version 4 intact, and the next open upgrades it in full', async () => {
    const crashed = [
      ...shippedUpgrades.slice(0, STATE_STEP),
      (db: IDBDatabase, tx: IDBTransaction) => {
        (shippedUpgrades[STATE_STEP] as (db: IDBDatabase, tx: IDBTransaction) => void)(db, tx);
        // The conversion's requests are issued; the tab dies before the transaction commits.
        tx.objectStore('sessions').openCursor().onsuccess = () => tx.abort();
      },
    ];
    await expect(
      openDatabase({ indexedDB, name: NAME, blockedTimeoutMs: 1000, onExternalClose: () => {}, upgrades: crashed }),
    ).rejects.toBeDefined();
    expect((await indexedDB.databases()).find((d) => d.name === NAME)?.version).toBe(V4_VERSION);
    const store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
    expect(await readAll(store)).toEqual(plain(V4_READ));
    await store.close();
  });
});
