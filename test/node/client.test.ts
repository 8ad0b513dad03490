/**
 * The worker boundary in Node: a host and a client on the two ends of a
 * MessageChannel. What the contract suite cannot see: what crosses the wire,
 * how pending calls end when the other side goes away, group commit, changes.
 */
import { IDBDatabase, IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHost, exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  type Session,
  type SessionStoreClient,
  StaleSessionError,
  type StoreChange,
  StoreClosedError,
  TimeoutError,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';

const APP = 'app';
const USER = 'u';
let n = 0;

function pair(indexedDB: IDBFactory, dbName: string): { client: SessionStoreClient; hostPort: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  exposeEngine(new StoreEngine({ indexedDB, dbName }), port1);
  return { client: connectSessionStore(port2, { dbName }), hostPort: port1 };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of open.splice(0)) await s.close().catch(() => {});
});

describe('worker boundary', () => {
  it('sends only the session key, its revision and the new events, never the history', async () => {
    const indexedDB = new IDBFactory();
    const { port1, port2 } = new MessageChannel();
    exposeEngine(new StoreEngine({ indexedDB, dbName: 'wire' }), port1);
    const post = vi.spyOn(port2, 'postMessage');
    const client = connectSessionStore(port2, { dbName: 'wire' });
    open.push(client);
    const session = await client.createSession({ appName: APP, userId: USER, sessionId: 's1' });
    for (let i = 0; i < 20; i++) await client.appendEvent({ session, event: makeEvent({ id: `old-${i}` }) });
    post.mockClear();
    await client.appendEvent({ session, event: makeEvent({ id: 'new' }) });
    const wire = JSON.stringify(post.mock.calls);
    expect(wire).toContain('"new"');
    expect(wire).not.toContain('old-');
    expect(session.events).toHaveLength(21);
  });

  it('stores events as JSON text and hands a session to the page as one text, cloned once', async () => {
    const indexedDB = new IDBFactory();
    const { client, hostPort } = pair(indexedDB, 'text');
    const answers = vi.spyOn(hostPort, 'postMessage');
    open.push(client);
    const session = await client.createSession({ appName: APP, userId: USER, sessionId: 's' });
    const sent = [makeEvent({ id: 'a' }), makeEvent({ id: 'b', content: { parts: [{ text: 'ünï "quoted"' }] } })];
    for (const event of sent) await client.appendEvent({ session, event: structuredClone(event) });
    answers.mockClear();
    const loaded = await client.getSession({ appName: APP, userId: USER, sessionId: 's' });
    expect(loaded?.events).toEqual(sent);
    const reply = answers.mock.calls
      .map(([m]) => (m as { value?: { value?: { eventsJson?: unknown; session?: Session } } }).value?.value)
      .find((v) => v?.session);
    expect(typeof reply?.eventsJson).toBe('string');
    expect(reply?.session?.events).toEqual([]);
    const raw = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('text');
      request.onsuccess = () => resolve(request.result);
    });
    const records = await new Promise<unknown[]>((resolve) => {
      const request = raw.transaction('events').objectStore('events').getAll();
      request.onsuccess = () => resolve(request.result);
    });
    raw.close();
    expect(records.map((r) => Object.keys(r as object).sort())).toEqual([
      ['id', 'json', 'seq', 'timestamp', 'uid'],
      ['id', 'json', 'seq', 'timestamp', 'uid'],
    ]);
  });

  it('rejects every pending call with StoreClosedError when the other end goes away', async () => {
    // A port nobody answers on: calls stay pending until it closes.
    const { port1, port2 } = new MessageChannel();
    port1.start();
    const client = connectSessionStore(port2, { dbName: 'silent' });
    const closed = vi.fn();
    client.onClose(closed);
    const calls = [
      client.getSession({ appName: APP, userId: USER, sessionId: 's' }),
      client.createSession({ appName: APP, userId: USER }),
      client.listSessions({ appName: APP }),
    ];
    port1.close();
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(StoreClosedError);
    expect(closed).toHaveBeenCalledOnce();
    expect(client.closed).toBe(true);
    await expect(client.getAppState({ appName: APP })).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('rejects a call that outlives timeoutMs with TimeoutError', async () => {
    const { port1, port2 } = new MessageChannel();
    port1.start();
    const client = connectSessionStore(port2, { dbName: 'slow', timeoutMs: 50 });
    await expect(client.getAppState({ appName: APP })).rejects.toBeInstanceOf(TimeoutError);
    port1.close();
  });

  it('lets queued appends finish on close(), then rejects new calls', async () => {
    const indexedDB = new IDBFactory();
    const { client } = pair(indexedDB, 'close');
    const session = await client.createSession({ appName: APP, userId: USER, sessionId: 's1' });
    const events = Array.from({ length: 25 }, () => makeEvent());
    const appends = events.map((event) => client.appendEvent({ session, event }));
    await client.close();
    await expect(Promise.all(appends)).resolves.toHaveLength(25);
    await expect(client.getSession({ appName: APP, userId: USER, sessionId: 's1' })).rejects.toBeInstanceOf(
      StoreClosedError,
    );
    const reopened = new IndexedDbSessionService({ indexedDB, dbName: 'close' });
    open.push(reopened);
    const stored = await reopened.getSession({ appName: APP, userId: USER, sessionId: 's1' });
    expect(stored?.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
  });

  it("applies an append to the caller's session object in place through the client", async () => {
    const { client } = pair(new IDBFactory(), 'in-place');
    open.push(client);
    const session = await client.createSession({ appName: APP, userId: USER, sessionId: 's1' });
    const event = makeEvent({ timestamp: 1_900_000_000_000, stateDelta: { a: 1, 'temp:t': 2, 'app:c': 3 } });
    const returned = await client.appendEvent({ session, event });
    expect(returned).toBe(event);
    expect(session.events[0]).toBe(event);
    expect(session.state).toEqual({ a: 1, 'temp:t': 2, 'app:c': 3 });
    expect(session.lastUpdateTime).toBe(1_900_000_000_000);
  });
});

describe('group commit', () => {
  it('writes appends waiting at the same moment, across sessions, in one transaction', async () => {
    const service = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: `group-${n++}` });
    open.push(service);
    const sessions: Session[] = [];
    for (let i = 0; i < 40; i++) sessions.push(await service.createSession({ appName: APP, userId: USER }));
    const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction');
    await Promise.all(sessions.map((session) => service.appendEvent({ session, event: makeEvent() })));
    const writes = transaction.mock.calls.filter(([, mode]) => mode === 'readwrite');
    expect(writes).toHaveLength(1);
  });

  it('fails a stale batch alone while the rest of its group lands', async () => {
    const indexedDB = new IDBFactory();
    const engine = new StoreEngine({ indexedDB, dbName: 'stale-group' });
    open.push(engine);
    const a = await engine.createSession({ appName: APP, userId: USER, sessionId: 'a' });
    const b = await engine.createSession({ appName: APP, userId: USER, sessionId: 'b' });
    const batch = (key: 'a' | 'b', ref: typeof a.ref, id: string) => ({
      appName: APP,
      userId: USER,
      sessionId: key,
      ref,
      lastUpdateTime: 0,
      events: [makeEvent({ id })],
    });
    const [first, second, other] = await Promise.allSettled([
      engine.appendEvents(batch('a', a.ref, 'first')),
      engine.appendEvents(batch('a', a.ref, 'second')),
      engine.appendEvents(batch('b', b.ref, 'other')),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(StaleSessionError);
    expect(other.status).toBe('fulfilled');
    const stored = await engine.getSession({ appName: APP, userId: USER, sessionId: 'a' });
    expect(stored?.session.events.map((e) => e.id)).toEqual(['first']);
  });

  it('fails an invalid event alone at the worker boundary while its batch-mates are stored', async () => {
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'host-batch' });
    open.push(engine);
    const host = createHost(() => engine);
    await host.hello({});
    const created = await host.createSession({ appName: APP, userId: USER, sessionId: 's' });
    if (!created.ok) throw new Error('create failed');
    const result = await host.appendEvents({
      appName: APP,
      userId: USER,
      sessionId: 's',
      ref: created.value.ref,
      lastUpdateTime: 0,
      events: [makeEvent({ id: 'ok-1' }), { id: 'bad', timestamp: 'yesterday' } as never, makeEvent({ id: 'ok-2' })],
    });
    if (!result.ok) throw new Error('batch failed');
    expect(result.value.results.map((r) => r?.code ?? null)).toEqual([null, 'INVALID_INPUT', null]);
    expect(result.value.results[1]?.message).toMatch(/timestamp/);
    const stored = await engine.getSession({ appName: APP, userId: USER, sessionId: 's' });
    expect(stored?.session.events.map((e) => e.id)).toEqual(['ok-1', 'ok-2']);
    expect(stored?.ref.revision).toBe(2);
  });

  it('sends the appends of many sessions issued in one turn as one message, and answers each alone', async () => {
    const indexedDB = new IDBFactory();
    const { port1, port2 } = new MessageChannel();
    exposeEngine(new StoreEngine({ indexedDB, dbName: 'many' }), port1);
    const post = vi.spyOn(port2, 'postMessage');
    const client = connectSessionStore(port2, { dbName: 'many' });
    open.push(client);
    const sessions = await Promise.all(
      ['a', 'b', 'c'].map((id) => client.createSession({ appName: APP, userId: USER, sessionId: id })),
    );
    const stale = await client.getSession({ appName: APP, userId: USER, sessionId: 'c' });
    await client.appendEvent({ session: stale as Session, event: makeEvent({ id: 'moved-on' }) });
    post.mockClear();
    // As agents do: every session awaits its own append, all of them at once.
    const settled = await Promise.allSettled(
      sessions.map(async (session) => {
        for (let i = 0; i < 3; i++)
          await client.appendEvent({ session, event: makeEvent({ id: `${session.id}-${i}` }) });
      }),
    );
    const calls = post.mock.calls.map(([m]) => (m as { path?: string[] }).path?.[0]);
    // Three rounds for a and b (c fails at once): each round is one message, never one per session.
    expect(calls.filter((p) => p === 'appendMany')).toHaveLength(3);
    expect(calls.filter((p) => p === 'appendEvents')).toHaveLength(0);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(StaleSessionError);
    for (const id of ['a', 'b']) {
      const stored = await client.getSession({ appName: APP, userId: USER, sessionId: id });
      expect(stored?.events.map((e) => e.id)).toEqual([`${id}-0`, `${id}-1`, `${id}-2`]);
    }
  });

  it('validates a raw appendMany: each batch fails alone, anything but a list fails whole', async () => {
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'host-many' });
    open.push(engine);
    const host = createHost(() => engine);
    await host.hello({});
    const created = await host.createSession({ appName: APP, userId: USER, sessionId: 's' });
    if (!created.ok) throw new Error('create failed');
    const good = { appName: APP, userId: USER, sessionId: 's', ref: created.value.ref, lastUpdateTime: 0 };
    const result = await host.appendMany([
      { ...good, events: [makeEvent({ id: 'kept' })] },
      { ...good, sessionId: '', events: [makeEvent({ id: 'refused' })] },
    ]);
    if (!result.ok) throw new Error('appendMany failed');
    expect(result.value.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'INVALID_INPUT']);
    expect(await host.appendMany('nope' as never)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const stored = await engine.getSession({ appName: APP, userId: USER, sessionId: 's' });
    expect(stored?.session.events.map((e) => e.id)).toEqual(['kept']);
  });

  it("uses the store's durability unless an append asks for another", async () => {
    const service = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'durability' });
    open.push(service);
    const session = await service.createSession({ appName: APP, userId: USER });
    const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction');
    await service.appendEvent({ session, event: makeEvent() });
    await service.appendEvent({ session, event: makeEvent(), durability: 'strict' });
    const durabilities = transaction.mock.calls
      .filter(([, mode]) => mode === 'readwrite')
      .map(([, , options]) => (options as { durability?: string } | undefined)?.durability);
    expect(durabilities).toEqual(['relaxed', 'strict']);
  });
});

describe('live changes', () => {
  it('tells each subscriber the changes its filter matches, from any instance, until unsubscribed', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `changes-${n++}`;
    const watcher = new IndexedDbSessionService({ indexedDB, dbName });
    const { client: writer } = pair(indexedDB, dbName);
    open.push(watcher, writer);
    const seen = { app: [] as StoreChange[], user: [] as StoreChange[], session: [] as StoreChange[] };
    const stopApp = watcher.subscribe({ appName: APP }, (c) => seen.app.push(c));
    const stopUser = watcher.subscribe({ appName: APP, userId: USER }, (c) => seen.user.push(c));
    const stopSession = watcher.subscribe({ appName: APP, userId: USER, sessionId: 's1' }, (c) => seen.session.push(c));
    const s1 = await writer.createSession({ appName: APP, userId: USER, sessionId: 's1' });
    await writer.createSession({ appName: APP, userId: 'other', sessionId: 's2' });
    const event = makeEvent({ id: 'e1' });
    await writer.appendEvent({ session: s1, event });
    await writer.deleteSession({ appName: APP, userId: USER, sessionId: 's1' });
    await vi.waitFor(() => expect(seen.app).toHaveLength(4));
    expect(seen.app.map((c) => [c.type, c.sessionId])).toEqual([
      ['created', 's1'],
      ['created', 's2'],
      ['appended', 's1'],
      ['deleted', 's1'],
    ]);
    expect(seen.user.map((c) => c.sessionId)).toEqual(['s1', 's1', 's1']);
    expect(seen.session[1]).toMatchObject({
      type: 'appended',
      revision: 1,
      eventIds: ['e1'],
      lastUpdateTime: event.timestamp,
    });
    stopApp();
    stopUser();
    stopSession();
    await writer.createSession({ appName: APP, userId: USER, sessionId: 's3' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.app).toHaveLength(4);
  });
});
