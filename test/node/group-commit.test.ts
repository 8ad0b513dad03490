/**
 * Group commit for creates and appends: writes waiting together share one
 * transaction, and each still succeeds or fails on its own.
 */
import { IDBDatabase, IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlreadyExistsError, IndexedDbSessionService, type Session, StaleSessionError } from '../../src/index.js';

let writes = 0;
/** The stores each read-write transaction named, sorted. */
let scopes: string[][] = [];
const original = IDBDatabase.prototype.transaction;
beforeEach(() => {
  writes = 0;
  scopes = [];
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    if (args[1] === 'readwrite') {
      writes++;
      const names = args[0];
      scopes.push((typeof names === 'string' ? [names] : [...names]).sort());
    }
    return original.apply(this, args);
  } as IDBDatabase['transaction'];
});
afterEach(() => {
  IDBDatabase.prototype.transaction = original;
});

let n = 0;
const open = () => new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: `group-${++n}` });
const app = { appName: 'a', userId: 'u' };

describe('createSession group commit', () => {
  it('writes 300 concurrent creates in one transaction, each with its own state, in call order', async () => {
    const store = open();
    await store.listApps(); // the database is open before counting
    writes = 0;
    const created = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        store.createSession({ ...app, sessionId: `s${i}`, state: { own: i, 'app:last': i, 'user:seen': i } }),
      ),
    );
    expect(writes).toBe(1);
    created.forEach((session, i) => {
      expect(session.state).toEqual({ own: i, 'app:last': i, 'user:seen': i });
    });
    const listed = await store.listSessions(app);
    expect(listed.totalItems).toBe(300);
    expect(await store.getAppState({ appName: 'a' })).toEqual({ last: 299 });
    expect((await store.getSession({ ...app, sessionId: 's7' }))?.state).toEqual({
      own: 7,
      'app:last': 299,
      'user:seen': 299,
    });
    await store.close();
  });

  it('writes creates blind: no lookup of their ids, one transaction', async () => {
    const store = open();
    await store.listApps();
    writes = 0;
    let lookups = 0;
    const getKey = IDBObjectStore.prototype.getKey;
    IDBObjectStore.prototype.getKey = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['getKey']>) {
      lookups++;
      return getKey.apply(this, args);
    };
    try {
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.createSession({ ...app, sessionId: `s${i}` })));
    } finally {
      IDBObjectStore.prototype.getKey = getKey;
    }
    expect([lookups, writes]).toEqual([0, 1]);
    await store.close();
  });

  it('fails only the creates whose id exists, stored before or earlier in the same group', async () => {
    const store = open();
    await store.createSession({ ...app, sessionId: 'old' });
    writes = 0;
    const outcomes = await Promise.allSettled([
      store.createSession({ ...app, sessionId: 'one' }),
      store.createSession({ ...app, sessionId: 'old' }),
      store.createSession({ ...app, sessionId: 'one' }),
      store.createSession({ ...app, sessionId: 'two' }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(AlreadyExistsError);
    // Blind, the stored id aborts the group; it goes again with lookups (not each create alone).
    expect(writes).toBe(2);
    const listed = await store.listSessions(app);
    expect(listed.sessions.map((s) => s.id).sort()).toEqual(['old', 'one', 'two']);
    expect(listed.totalItems).toBe(3);
    expect((await store.listUsers({ appName: 'a' })).map((u) => u.sessionCount)).toEqual([3]);
    await store.close();
  });
});

describe('append group commit', () => {
  it('writes a group blind; one repeated id makes it go again with lookups, and every append lands', async () => {
    const store = open();
    const a = await store.createSession({ ...app, sessionId: 'a' });
    const b = await store.createSession({ ...app, sessionId: 'b' });
    await store.appendEvent({ session: a, event: { id: 'e1', invocationId: 'i', timestamp: 1, author: 'first' } });
    writes = 0;
    await Promise.all([
      store.appendEvent({ session: a, event: { id: 'e1', invocationId: 'i', timestamp: 2, author: 'again' } }),
      store.appendEvent({ session: b, event: { id: 'e1', invocationId: 'i', timestamp: 3 } }),
      store.appendEvent({ session: b, event: { id: 'e2', invocationId: 'i', timestamp: 4 } }),
    ]);
    expect(writes).toBe(2);
    const storedA = await store.getSession({ ...app, sessionId: 'a' });
    expect(storedA?.events.map((e) => [e.id, e.author])).toEqual([['e1', 'again']]);
    expect((await store.getSession({ ...app, sessionId: 'b' }))?.events.map((e) => e.id)).toEqual(['e1', 'e2']);
    await store.close();
  });

  it('tells subscribers of every append of a group in one broadcast message', async () => {
    const store = open();
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.createSession({ ...app, sessionId: `s${i}` })),
    );
    const heard: string[] = [];
    const all20 = new Promise<void>((resolve) => {
      store.subscribe({ appName: 'a' }, (change) => {
        if (change.type === 'appended') heard.push(change.sessionId);
        if (heard.length === 20) resolve();
      });
    });
    const post = BroadcastChannel.prototype.postMessage;
    let posts = 0;
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, message: unknown) {
      posts++;
      post.call(this, message);
    };
    try {
      await Promise.all(
        sessions.map((session, i) =>
          store.appendEvent({ session, event: { id: `e${i}`, invocationId: 'i', timestamp: i } }),
        ),
      );
    } finally {
      BroadcastChannel.prototype.postMessage = post;
    }
    await all20;
    expect(posts).toBe(1);
    expect(heard.sort()).toEqual(sessions.map((s) => s.id).sort());
    await store.close();
  });

  it('writes new events blind: one transaction for a group of sessions', async () => {
    const store = open();
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.createSession({ ...app, sessionId: `s${i}` })),
    );
    writes = 0;
    await Promise.all(
      sessions.map((session, i) =>
        store.appendEvent({ session, event: { id: `e${i}`, invocationId: 'i', timestamp: i } }),
      ),
    );
    expect(writes).toBe(1);
    await store.close();
  });

  it('locks the state store only for a group that changes state', async () => {
    const store = open();
    const a = await store.createSession({ ...app, sessionId: 'a1' });
    const b = await store.createSession({ ...app, sessionId: 'b1' });
    const append = (session: Session, id: string, stateDelta: Record<string, unknown>) =>
      store.appendEvent({ session, event: { id, invocationId: 'i', timestamp: 1, actions: { stateDelta } } });
    scopes = [];
    await append(a, 'bare', {});
    await append(a, 'temp-only', { 'temp:draft': 'x' });
    await append(a, 'user', { 'user:name': 'Ann' });
    await Promise.all([append(a, 'app', { 'app:theme': 'dark' }), append(b, 'plain-beside', { step: 1 })]);
    expect(scopes).toEqual([
      ['events', 'sessions'],
      ['events', 'sessions'],
      ['events', 'sessions', 'state'],
      ['events', 'sessions', 'state'],
    ]);
    const stored = await store.getSession({ ...app, sessionId: 'b1' });
    expect(stored?.state).toEqual({ step: 1, 'user:name': 'Ann', 'app:theme': 'dark' });
    await store.close();
  });
});

describe('appends written before their session is read (the record this engine remembers)', () => {
  it('still loses to another tab: the stale append is refused whole, the other tab keeps its event', async () => {
    const indexedDB = new IDBFactory();
    const here = new IndexedDbSessionService({ indexedDB, dbName: 'remembered-stale' });
    const there = new IndexedDbSessionService({ indexedDB, dbName: 'remembered-stale' });
    const mine = await here.createSession({ ...app, sessionId: 's' });
    await here.appendEvent({ session: mine, event: { id: 'e1', invocationId: 'i', timestamp: 1 } });
    const theirs = await there.getSession({ ...app, sessionId: 's' });
    if (!theirs) throw new Error('missing');
    await there.appendEvent({
      session: theirs,
      event: { id: 'e2', invocationId: 'i', timestamp: 2, actions: { stateDelta: { by: 'there' } } },
    });
    await expect(
      here.appendEvent({
        session: mine,
        event: { id: 'e3', invocationId: 'i', timestamp: 3, actions: { stateDelta: { by: 'here' } } },
      }),
    ).rejects.toBeInstanceOf(StaleSessionError);
    const stored = await there.getSession({ ...app, sessionId: 's' });
    expect(stored?.events.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(stored?.state).toEqual({ by: 'there' });
    await here.close();
    await there.close();
  });

  it('keeps what was appended, not what the caller changed in its objects afterwards', async () => {
    const store = open();
    const session = await store.createSession({ ...app, sessionId: 's' });
    const cart = { items: ['apple'] };
    await store.appendEvent({
      session,
      event: { id: 'e1', invocationId: 'i', timestamp: 1, actions: { stateDelta: { cart } } },
    });
    cart.items.push('changed after the append');
    await store.appendEvent({ session, event: { id: 'e2', invocationId: 'i', timestamp: 2 } });
    expect((await store.getSession({ ...app, sessionId: 's' }))?.state).toEqual({ cart: { items: ['apple'] } });
    await store.close();
  });
});
