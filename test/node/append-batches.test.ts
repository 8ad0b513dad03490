/**
 * Appends issued without awaiting go to the store in batches; a batch must stay
 * within what a worker host accepts (`MAX_BATCH_EVENTS`), however many are queued.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_EVENTS } from '../../src/core/limits.js';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  InvalidInputError,
  type Session,
  StaleSessionError,
} from '../../src/index.js';

describe('un-awaited appends through a client', () => {
  it('stores more than one batch worth of appends to one session, in call order', async () => {
    const indexedDB = new IDBFactory();
    const { port1, port2 } = new MessageChannel();
    exposeEngine(new StoreEngine({ indexedDB, dbName: 'batches' }), port1);
    const client = connectSessionStore(port2, { dbName: 'batches' });
    const session = await client.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
    const count = MAX_BATCH_EVENTS + 2;
    const appends = Array.from({ length: count }, (_, i) =>
      client.appendEvent({ session, event: { id: `e${i}`, invocationId: 'i', timestamp: i } }),
    );
    const settled = await Promise.allSettled(appends);
    expect(settled.filter((r) => r.status === 'rejected')).toEqual([]);
    const stored = await client.getSession({
      appName: 'a',
      userId: 'u',
      sessionId: 's',
      config: { numRecentEvents: 3 },
    });
    expect(stored?.events.map((e) => e.id)).toEqual([`e${count - 3}`, `e${count - 2}`, `e${count - 1}`]);
    expect(session.events).toHaveLength(count);
    await client.close();
    port1.close();
  }, 60_000);
});

describe.each([
  {
    through: 'in-thread',
    open: (indexedDB: IDBFactory, dbName: string) => new IndexedDbSessionService({ indexedDB, dbName }),
  },
  {
    through: 'a worker client',
    open: (indexedDB: IDBFactory, dbName: string) => {
      const { port1, port2 } = new MessageChannel();
      exposeEngine(new StoreEngine({ indexedDB, dbName }), port1);
      return connectSessionStore(port2, { dbName });
    },
  },
])('appendEvents $through: all the events of one call, or none', ({ open }) => {
  const key = { appName: 'a', userId: 'u', sessionId: 's' };
  const event = (id: string, delta: Record<string, unknown> = {}) => ({
    id,
    invocationId: 'i',
    timestamp: 1,
    actions: { stateDelta: delta },
  });
  let n = 0;
  const fresh = async () => {
    const store = open(new IDBFactory(), `all-or-none-${n++}`);
    const session = await store.createSession(key);
    return { store, session };
  };

  it('stores them in order in one batch and updates the session in place', async () => {
    const { store, session } = await fresh();
    const stored = await store.appendEvents({ session, events: [event('a', { step: 1 }), event('b', { step: 2 })] });
    expect(stored.map((e) => e.id)).toEqual(['a', 'b']);
    expect(session.state).toEqual({ step: 2 });
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['a', 'b']);
    await store.close();
  });

  it('stores none when one is refused, names the refused one, and leaves the session object as it was', async () => {
    const { store, session } = await fresh();
    const refused = store.appendEvents({
      session,
      events: [event('a', { step: 1 }), { ...event('b'), timestamp: 'soon' as unknown as number }, event('c')],
    });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toThrow(/timestamp/);
    expect(session).toMatchObject({ events: [], state: {} });
    expect((await store.getSession(key))?.events).toEqual([]);
    // The session object is still current: nothing moved it on.
    await store.appendEvent({ session, event: event('later') });
    await store.close();
  });

  it('binds no other caller: an append issued in the same turn is stored though the call fails', async () => {
    const { store, session } = await fresh();
    const [alone, group] = await Promise.allSettled([
      store.appendEvent({ session, event: event('alone') }),
      store.appendEvents({ session, events: [event('x'), event('')] }),
    ]);
    expect(alone.status).toBe('fulfilled');
    expect(group.status).toBe('rejected');
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['alone']);
    await store.close();
  });

  it('stores none on a stale session, and hands partial events back unstored', async () => {
    const { store, session } = await fresh();
    const stale = (await store.getSession(key)) as Session;
    await store.appendEvent({ session, event: event('moved-on') });
    await expect(store.appendEvents({ session: stale, events: [event('p'), event('q')] })).rejects.toBeInstanceOf(
      StaleSessionError,
    );
    const streaming = { ...event('chunk'), partial: true };
    const stored = await store.appendEvents({ session, events: [streaming, event('final')] });
    expect(stored[0]).toBe(streaming);
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['moved-on', 'final']);
    await store.close();
  });
});
