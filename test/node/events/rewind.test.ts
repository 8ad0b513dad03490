/**
 * The rewind and branching suites (test/contract/rewind.ts, branches.ts) in Node: in-thread, and
 * through a worker's port; and the race it guards against made certain: another connection appends
 * between the rewind's read and its write, and the rewind is computed again on what that append
 * wrote; and a rewind that fails half-way leaves nothing, not even the artifact versions it had saved.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService } from '../../../src/index.js';
import { describeBranches } from '../../contract/branches.js';
import { describeRewind } from '../../contract/rewind.js';
import { storeKinds } from '../store-kinds.js';

let n = 0;
for (const [where, open] of storeKinds('rewind')) {
  describeRewind(where, open);
  describeBranches(where, open);
}

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

describe('a rewind that fails inside its transaction', () => {
  it('stores neither its event nor the artifact versions it had saved', async () => {
    const dbName = `rewind-fail-${n++}`;
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName });
    const { port1, port2 } = new MessageChannel();
    exposeEngine(engine, port1);
    const store = connectSessionStore(port2, { dbName });
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const file = { ...key, filename: 'f.txt' };
    await store.artifacts.saveArtifact({ ...file, artifact: { text: 'v0' } });
    await store.artifacts.saveArtifact({ ...file, artifact: { text: 'v1' } });
    const session = await store.createSession(key);
    const event = (id: string, invocationId: string, version: number) => ({
      id,
      invocationId,
      timestamp: 1,
      actions: { stateDelta: { v: version }, artifactDelta: { 'f.txt': version } },
    });
    await store.appendEvents({ session, events: [event('e1', 'inv1', 0), event('e2', 'inv2', 1)] });
    // Registered after the artifacts' hook: it fails once theirs has saved its version.
    let saved: unknown;
    engine.database.onSessionRewound({
      stores: ['artifacts'],
      load: async () => async (tx) => {
        const artifacts = tx.objectStore('artifacts');
        for (let i = 0; i < 3 && saved === undefined; i++)
          saved = await artifacts.getKey(['app', 'u', 's', 'f.txt', 2]);
        throw new Error('the disk is full');
      },
    });
    await expect(store.rewind({ ...key, beforeInvocationId: 'inv2' })).rejects.toThrow('the disk is full');
    expect(saved).toEqual(['app', 'u', 's', 'f.txt', 2]);
    expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect((await store.getSession(key))?.state).toEqual({ v: 1 });
    expect(await store.artifacts.listVersions(file)).toEqual([0, 1]);
    await store.close();
    await engine.close();
  });
});
