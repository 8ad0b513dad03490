/**
 * The rewind suite (test/contract/rewind.ts) in Node: in-thread, and through a worker's port; and
 * the race it guards against made certain: another connection appends between the rewind's read
 * and its write, and the rewind is computed again on what that append wrote.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
import { describeRewind } from '../../contract/rewind.js';

let n = 0;
describeRewind(
  'in-thread',
  () => new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `rewind-${n++}` }),
);
describeRewind('through a worker port', () => {
  const dbName = `rewind-${n++}`;
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName }), port1);
  return connectSessionStore(port2, { dbName });
});

describe('a rewind whose session another connection appends to between its read and its write', () => {
  it('is refused as stale and computed again, so it undoes that append too', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `rewind-race-${n++}`;
    const engine = new StoreEngine({ indexedDB, IDBKeyRange, dbName });
    const other = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const session = await other.createSession(key);
    const event = (id: string, invocationId: string, stateDelta: Record<string, unknown>) => ({
      id,
      invocationId,
      timestamp: 1,
      actions: { stateDelta },
    });
    await other.appendEvents({ session, events: [event('e1', 'inv1', { a: 1 }), event('e2', 'inv2', { a: 2 })] });
    // A hook's code loads after the rewind's read and before its write: the other tab appends then.
    let loads = 0;
    engine.database.onSessionRewound({
      stores: [],
      async load() {
        if (loads++ === 0) await other.appendEvent({ session, event: event('e3', 'inv3', { late: true }) });
        return async () => ({});
      },
    });
    const rewound = await engine.rewind({ ...key, beforeInvocationId: 'inv2' });
    expect(loads).toBe(2);
    expect(rewound.actions?.stateDelta).toEqual({ a: 1, late: null });
    const stored = await other.getSession(key);
    expect(stored?.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', rewound.id]);
    expect(stored?.state).toEqual({ a: 1, late: null });
    await other.close();
    await engine.close();
  });
});
