/**
 * The guard behind "a late answer never brings erased content back" (src/sync/local.ts,
 * `integrate`): when an event erased here joins the synced prefix, through the server's answer to
 * its push or as the server's copy in a conflict, the device owes the server its erasure again,
 * even when it had already sent every erasure it counted (it sends the synced prefix's erasures, and
 * the event was still pending then). Driven on the device's database directly: over HTTP the rounds'
 * order makes this rare (a round that stopped on a busy session, or a session the server lost).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { engineOf } from '../../../src/host/engine-of.js';
import { type Event, IndexedDbSessionService, isErased } from '../../../src/index.js';
import { owesErasures } from '../../../src/sync/erasures.js';
import { integrate, type Key } from '../../../src/sync/local.js';
import { turn } from '../../sync/devices.js';

const key: Key = ['chat', 'alice', 'owed'];
const request = { appName: key[0], userId: key[1], sessionId: key[2] };
let store: IndexedDbSessionService;
afterEach(() => store?.close());

/** A session whose only event, `secret`, is pending, erased here, with every counted erasure marked sent. */
async function erasedPending(): Promise<{ secret: Event; engine: ReturnType<typeof engineOf> }> {
  store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'owed' });
  const engine = engineOf(store);
  const session = await store.createSession(request);
  const secret = turn('a secret', 'inv-1');
  await store.appendEvent({ session, event: secret });
  await store.erase({ ...request, eventIds: [secret.id] });
  await engine.transact(async (db) => {
    const tx = db.transaction(['sessions', 'syncSessions'], 'readwrite');
    const record = await tx.objectStore('sessions').get(key);
    if (!record) throw new Error('no session');
    tx.objectStore('syncSessions').put({
      ...request,
      id: key[2],
      uid: record.uid,
      syncedNext: 0,
      serverPos: 0,
      syncedState: {},
      syncedErasures: record.erasures ?? 0,
    });
    await tx.done;
  });
  return { secret, engine };
}

/** Whether the session owes the server erasures, and its events as stored. */
async function outcome(engine: ReturnType<typeof engineOf>): Promise<{ owes: boolean; events: Event[] }> {
  const owes = await engine.transact(async (db) => {
    const tx = db.transaction(['sessions', 'syncSessions'], 'readonly');
    const [record, mark] = await Promise.all([
      tx.objectStore('sessions').get(key),
      tx.objectStore('syncSessions').get(key),
    ]);
    return record !== undefined && mark !== undefined && owesErasures(record, mark);
  });
  return { owes, events: (await store.getSession(request))?.events ?? [] };
}

describe('an event erased here joining the synced prefix', () => {
  it('by the answer to its push: erasure owed', async () => {
    const { secret, engine } = await erasedPending();
    expect((await outcome(engine)).owes).toBe(false);
    await engine.transact((db) => integrate(db, key, { placed: [{ id: secret.id, pos: 1, timestamp: 5 }] }));
    const { owes, events } = await outcome(engine);
    expect(owes).toBe(true);
    expect(events.map(isErased)).toEqual([true]);
  });

  it('as the server’s copy, content and all: kept erased, erasure owed', async () => {
    const { secret, engine } = await erasedPending();
    await engine.transact((db) => integrate(db, key, { incoming: [{ pos: 1, event: secret }] }));
    const { owes, events } = await outcome(engine);
    expect(owes).toBe(true);
    expect(events.map(isErased)).toEqual([true]);
    expect(JSON.stringify(events)).not.toContain('a secret');
  });

  it('an event not erased here joins it without owing anything', async () => {
    const { engine } = await erasedPending();
    const other = turn('hello', 'inv-2');
    await engine.transact((db) => integrate(db, key, { incoming: [{ pos: 1, event: other }] }));
    expect((await outcome(engine)).owes).toBe(false);
  });
});
