/**
 * Appends issued without awaiting go to the store in batches; a batch must stay
 * within what a worker host accepts (`MAX_BATCH_EVENTS`), however many are queued.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { connectSessionStore, exposeSessionService, StoreEngine } from '../../src/index.js';
import { MAX_BATCH_EVENTS } from '../../src/protocol.js';

describe('un-awaited appends through a client', () => {
  it('stores more than one batch worth of appends to one session, in call order', async () => {
    const indexedDB = new IDBFactory();
    const { port1, port2 } = new MessageChannel();
    exposeSessionService(new StoreEngine({ indexedDB, dbName: 'batches' }), port1);
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
