/**
 * Live queries on the in-thread store: the current value, then every committed
 * change from another instance over the same database (what another tab is),
 * read narrowly and coalesced, with errors delivered and everything released on stop.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbSessionService,
  InvalidInputError,
  type Session,
  StoreClosedError,
  watchAppState,
  watchSession,
  watchSessions,
  watchUserState,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';
import { collect, recordingStore } from '../live/helpers.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 's1' };
let n = 0;
const open: { close(): Promise<void> }[] = [];
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const store of open.splice(0)) await store.close();
});

/** Two stores over one database: `reader` watches, `writer` is another tab. */
function twoTabs(): { reader: IndexedDbSessionService; writer: IndexedDbSessionService } {
  const indexedDB = new IDBFactory();
  const dbName = `live-${n++}`;
  const reader = new IndexedDbSessionService({ dbName, indexedDB });
  const writer = new IndexedDbSessionService({ dbName, indexedDB });
  open.push(reader, writer);
  return { reader, writer };
}

function watched<T>(query: Parameters<typeof collect<T>>[0]) {
  const c = collect(query);
  stops.push(c.stop);
  return c;
}

describe('watchSession', () => {
  it('delivers the current session, then each append made by another tab, reading only the new events', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession({ ...key, state: { step: 0 } });
    for (let i = 0; i < 5; i++) await writer.appendEvent({ session, event: makeEvent({ id: `old-${i}` }) });
    const { store, reads } = recordingStore(reader);
    const { values } = watched(watchSession(store, key));
    await expect.poll(() => values.length).toBe(1);
    expect(values[0]?.events.map((e) => e.id)).toEqual(['old-0', 'old-1', 'old-2', 'old-3', 'old-4']);

    await writer.appendEvent({ session, event: makeEvent({ id: 'new', stateDelta: { step: 1 } }) });
    await expect.poll(() => values.length).toBe(2);
    const latest = values[1];
    expect(latest?.events.map((e) => e.id)).toEqual(['old-0', 'old-1', 'old-2', 'old-3', 'old-4', 'new']);
    expect(latest?.state).toEqual({ step: 1 });
    expect(latest?.lastUpdateTime).toBe(session.lastUpdateTime);
    expect(latest).toEqual(await reader.getSession(key));
    // The first read is whole; the append is read as its one event.
    expect(reads).toEqual(['getSession', 'getSession(last 1)']);
    // Values are new objects; the delivered ones are never changed afterwards.
    expect(values[0]?.events).toHaveLength(5);
  });

  it('coalesces a burst: 100 appends committed while a read is under way arrive as a handful of values', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    const { store, reads } = recordingStore(reader);
    // Reads wait at a gate, so the burst lands while the first re-read is in flight, whatever the machine's speed.
    let open: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    const gated = {
      ...store,
      getSession: async (request: Parameters<typeof store.getSession>[0]) => {
        await gate;
        return store.getSession(request);
      },
    };
    const { values } = watched(watchSession(gated, key));
    await expect.poll(() => values.length).toBe(1);
    gate = new Promise((resolve) => {
      open = resolve;
    });
    for (let i = 0; i < 100; i++) await writer.appendEvent({ session, event: makeEvent({ id: `b-${i}` }) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    await expect.poll(() => values.at(-1)?.events.length).toBe(100);
    expect(values.at(-1)?.events.map((e) => e.id)).toEqual(Array.from({ length: 100 }, (_, i) => `b-${i}`));
    expect(values.length).toBeLessThanOrEqual(3);
    // Still narrow: no whole-session read after the first.
    expect(reads.filter((r) => r === 'getSession')).toHaveLength(1);
  });

  it('stays silent on changes that cannot change it, and hears app: and user: writes made through other sessions', async () => {
    const { reader, writer } = twoTabs();
    const mine = await writer.createSession(key);
    const other = await writer.createSession({ ...key, sessionId: 's2' });
    const bobs = await writer.createSession({ ...key, userId: 'bob', sessionId: 's3' });
    const elsewhere = await writer.createSession({ ...key, appName: 'mail' });
    const { values } = watched(watchSession(reader, key));
    await expect.poll(() => values.length).toBe(1);

    await writer.appendEvent({ session: other, event: makeEvent({ stateDelta: { own: 1 } }) });
    await writer.appendEvent({ session: bobs, event: makeEvent({ stateDelta: { 'user:name': 'Bob' } }) });
    await writer.appendEvent({ session: elsewhere, event: makeEvent({ stateDelta: { 'app:x': 1, 'user:y': 1 } }) });
    await writer.deleteSession({ ...key, sessionId: 's2' });
    // Time for the re-checks those changes cause to finish, so none is folded into the next one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(values).toHaveLength(1);
    await writer.appendEvent({ session: mine, event: makeEvent({ id: 'mark' }) });
    await expect.poll(() => values.length).toBe(2);
    expect(values[1]?.events.map((e) => e.id)).toEqual(['mark']);

    await writer.appendEvent({ session: bobs, event: makeEvent({ stateDelta: { 'app:topic': 'billing' } }) });
    await expect.poll(() => values.length).toBe(3);
    expect(values[2]?.state).toEqual({ 'app:topic': 'billing' });
    const another = await writer.createSession({ ...key, sessionId: 's4' });
    await writer.appendEvent({ session: another, event: makeEvent({ stateDelta: { 'user:name': 'Ada' } }) });
    await expect.poll(() => values.length).toBe(4);
    expect(values[3]?.state).toEqual({ 'app:topic': 'billing', 'user:name': 'Ada' });
    expect(values[3]?.events.map((e) => e.id)).toEqual(['mark']);
  });

  it('reads nothing for appends to other sessions that write no app: or user: keys (the notice says which scopes)', async () => {
    const { reader, writer } = twoTabs();
    await writer.createSession(key);
    const other = await writer.createSession({ ...key, sessionId: 's2' });
    const { store, reads } = recordingStore(reader);
    const session = watched(watchSession(store, key));
    const user = watched(watchUserState(store, { appName: 'chat', userId: 'ada' }));
    const app = watched(watchAppState(store, { appName: 'chat' }));
    await expect.poll(() => session.values.length + user.values.length + app.values.length).toBe(3);
    const before = reads.length;
    for (let i = 0; i < 5; i++) {
      await writer.appendEvent({ session: other, event: makeEvent({ stateDelta: { own: i, 'temp:t': i } }) });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads.slice(before)).toEqual([]);
    await writer.appendEvent({ session: other, event: makeEvent({ stateDelta: { 'user:name': 'Ada' } }) });
    await expect.poll(() => user.values.length).toBe(2);
    await expect.poll(() => session.values.length).toBe(2);
    expect(reads.slice(before)).not.toContain('getAppState');
  });

  it('follows a replaced event in its place, a deletion, and a re-creation', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    for (const id of ['a', 'b', 'c']) await writer.appendEvent({ session, event: makeEvent({ id }) });
    const { values } = watched(watchSession(reader, key));
    await expect.poll(() => values.length).toBe(1);
    await writer.appendEvent({ session, event: makeEvent({ id: 'a', author: 'edited' }) });
    await expect.poll(() => values.length).toBe(2);
    expect(values[1]?.events.map((e) => `${e.id}:${e.author}`)).toEqual(['a:edited', 'b:user', 'c:user']);
    expect(values[1]).toEqual(await reader.getSession(key));

    await writer.deleteSession(key);
    await expect.poll(() => values.length).toBe(3);
    expect(values[2]).toBeUndefined();
    await writer.createSession({ ...key, state: { again: true } });
    await expect.poll(() => values.length).toBe(4);
    expect(values[3]?.state).toEqual({ again: true });
  });

  it("keeps the request's event window as the session grows", async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    for (let i = 0; i < 4; i++) await writer.appendEvent({ session, event: makeEvent({ id: `e${i}` }) });
    const { values } = watched(watchSession(reader, { ...key, config: { numRecentEvents: 3 } }));
    await expect.poll(() => values.length).toBe(1);
    expect(values[0]?.events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    await writer.appendEvent({ session, event: makeEvent({ id: 'e4' }) });
    await expect.poll(() => values.length).toBe(2);
    expect(values[1]?.events.map((e) => e.id)).toEqual(['e2', 'e3', 'e4']);
  });

  it('delivers a failed read to onError and recovers on the next change', async () => {
    const { reader, writer } = twoTabs();
    const { values, errors } = watched(watchSession(reader, { ...key, sessionId: ' padded ' }));
    await expect.poll(() => errors.length).toBe(1);
    expect(errors[0]).toBeInstanceOf(InvalidInputError);
    expect(values).toEqual([]);

    let failNext = true;
    const flaky = {
      ...reader,
      subscribe: reader.subscribe.bind(reader),
      getAppState: reader.getAppState.bind(reader),
      getUserState: reader.getUserState.bind(reader),
      listSessions: reader.listSessions.bind(reader),
      getSession: (request: Parameters<typeof reader.getSession>[0]) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('disk on fire'));
        }
        return reader.getSession(request);
      },
    };
    const recovering = watched(watchSession(flaky, key));
    await expect.poll(() => recovering.errors.length).toBe(1);
    await writer.createSession(key);
    await expect.poll(() => recovering.values.length).toBe(1);
    expect(recovering.values[0]?.id).toBe('s1');
  });

  it('gives a watcher that joins a running query its current value at once, without a new read', async () => {
    const { reader, writer } = twoTabs();
    await writer.createSession({ ...key, state: { step: 7 } });
    const { store, reads } = recordingStore(reader);
    const query = watchSession(store, key);
    const first = watched(query);
    await expect.poll(() => first.values.length).toBe(1);
    const late = watched(query);
    await expect.poll(() => late.values.length).toBe(1);
    expect(late.values[0]).toBe(first.values[0]);
    expect(reads).toEqual(['getSession']);
    // One that leaves at once hears nothing.
    const gone = collect(query);
    gone.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gone.values).toEqual([]);
  });

  it('asks for its first read before the task that subscribed ends; one dropped in that task reads nothing', async () => {
    const { reader, writer } = twoTabs();
    await writer.createSession(key);
    const { store, reads } = recordingStore(reader);
    // A timer queued now runs after the task; the read must have been asked for by then (not after a paint).
    const atNextTask = new Promise<string[]>((resolve) => setTimeout(() => resolve([...reads]), 0));
    const query = watchSession(store, key);
    stops.push(query.subscribe(() => {}));
    expect(reads).toEqual([]);
    expect(await atNextTask).toEqual(['getSession']);
    // Subscribed and dropped, then subscribed again, in one task (React's strict mode): one read.
    const { store: twice, reads: twiceReads } = recordingStore(reader);
    const again = watchSession(twice, key);
    again.subscribe(() => {})();
    const kept = collect(again);
    stops.push(kept.stop);
    await expect.poll(() => kept.values.length).toBe(1);
    expect(twiceReads).toEqual(['getSession']);
  });

  it('releases its change subscription on stop, and reads nothing more', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    const { store, reads, subscriptions } = recordingStore(reader);
    const query = watchSession(store, key);
    const first = collect(query);
    const second = collect(query);
    await expect.poll(() => first.values.length).toBe(1);
    expect(subscriptions()).toBe(1);
    first.stop();
    second.stop();
    expect(subscriptions()).toBe(0);
    const before = reads.length;
    await writer.appendEvent({ session, event: makeEvent() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads.length).toBe(before);
    expect(query.getSnapshot().status).toBe('ready');
  });
});

describe('watchSessions, watchUserState, watchAppState', () => {
  it('keeps a listing page current: new sessions, moves by last update, deletions', async () => {
    const { reader, writer } = twoTabs();
    const a = await writer.createSession({ ...key, sessionId: 'a' });
    await writer.createSession({ ...key, sessionId: 'b' });
    const { values } = watched(watchSessions(reader, { appName: 'chat', userId: 'ada', order: 'desc', limit: 2 }));
    await expect.poll(() => values.length).toBe(1);
    const ids = () => values.at(-1)?.sessions.map((s) => s.id);
    await writer.appendEvent({ session: a, event: makeEvent({ timestamp: Date.now() + 10_000 }) });
    await expect.poll(ids).toEqual(['a', 'b']);
    await writer.createSession({ ...key, sessionId: 'c' });
    await expect.poll(() => values.at(-1)?.totalItems).toBe(3);
    await writer.deleteSession({ ...key, sessionId: 'a' });
    await expect.poll(() => values.at(-1)?.totalItems).toBe(2);
    expect(values.at(-1)).toEqual(
      await reader.listSessions({ appName: 'chat', userId: 'ada', order: 'desc', limit: 2 }),
    );
  });

  it("delivers a user's and an app's state, and nothing for writes that leave them unchanged", async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    const user = watched(watchUserState(reader, { appName: 'chat', userId: 'ada' }));
    const app = watched(watchAppState(reader, { appName: 'chat' }));
    await expect.poll(() => user.values.length + app.values.length).toBe(2);
    await writer.appendEvent({ session, event: makeEvent({ stateDelta: { own: 1 } }) });
    await writer.appendEvent({ session, event: makeEvent({ stateDelta: { 'user:name': 'Ada' } }) });
    await expect.poll(() => user.values.length).toBe(2);
    await writer.appendEvent({ session, event: makeEvent({ stateDelta: { 'app:n': 1 } }) });
    await expect.poll(() => app.values.length).toBe(2);
    expect(user.values).toEqual([{}, { name: 'Ada' }]);
    expect(app.values).toEqual([{}, { n: 1 }]);
  });
});

describe('live values are read-only', () => {
  it('delivers deeply frozen values, old and new, and a narrow re-read leaves the delivered ones as they were', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession({ ...key, state: { step: 0 } });
    await writer.appendEvent({ session, event: makeEvent({ id: 'a' }) });
    const { values } = watched(watchSession(reader, key));
    await expect.poll(() => values.length).toBe(1);
    const first = values[0] as Session;
    for (const part of [first, first.events, first.state, first.events[0], first.events[0]?.content]) {
      expect(Object.isFrozen(part)).toBe(true);
    }
    expect(() => first.events.push(makeEvent())).toThrow(TypeError);
    await writer.appendEvent({ session, event: makeEvent({ id: 'b', stateDelta: { step: 1 } }) });
    await expect.poll(() => values.length).toBe(2);
    expect(Object.isFrozen(values[1]?.events[1])).toBe(true);
    expect(first.events.map((e) => e.id)).toEqual(['a']);
    expect(first.state).toEqual({ step: 0 });
  });

  it('appendEvent refuses a delivered session with InvalidInputError, storing nothing; a copy appends', async () => {
    const { reader } = twoTabs();
    await reader.createSession(key);
    const { values } = watched(watchSession(reader, key));
    await expect.poll(() => values.length).toBe(1);
    const live = values[0] as Session;
    const refused = reader.appendEvent({ session: live, event: makeEvent({ id: 'x' }) });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toThrow(/frozen.*getSession/);
    await expect(reader.appendEvents({ session: live, events: [makeEvent()] })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect((await reader.getSession(key))?.events).toEqual([]);
    expect(live.events).toEqual([]);

    const copy = structuredClone(live);
    await reader.appendEvent({ session: copy, event: makeEvent({ id: 'y' }) });
    expect(copy.events.map((e) => e.id)).toEqual(['y']);
    await expect.poll(() => values.at(-1)?.events.map((e) => e.id)).toEqual(['y']);
  });
});

describe('a closed store', () => {
  it("ends its queries with 'closed' and a StoreClosedError (store.onClose), keeping the last value, reading nothing more", async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    const query = watchSession(reader, key);
    const { values, errors } = watched(query);
    await expect.poll(() => values.length).toBe(1);
    await reader.close();
    await expect.poll(() => query.getSnapshot().status).toBe('closed');
    const closed = query.getSnapshot();
    expect(closed.error).toBeInstanceOf(StoreClosedError);
    expect(closed.value).toBe(values[0]);
    expect(errors).toEqual([closed.error]);
    await writer.appendEvent({ session, event: makeEvent() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(values).toHaveLength(1);
    // Final: a later subscriber is told at once, and nothing restarts.
    const heard: string[] = [];
    const stop = query.subscribe((snapshot) => heard.push(snapshot.status));
    expect(heard).toEqual(['closed']);
    stop.unsubscribe();
  });

  it('learns of it from the StoreClosedError a re-read gets when the store has no onClose', async () => {
    const { reader, writer } = twoTabs();
    const session = await writer.createSession(key);
    const { store, reads } = recordingStore(reader);
    // Notices come from the open tab; reads go to the one about to close.
    const query = watchSession({ ...store, subscribe: writer.subscribe.bind(writer) }, key);
    const { values } = watched(query);
    await expect.poll(() => values.length).toBe(1);
    await reader.close();
    await writer.appendEvent({ session, event: makeEvent() });
    await expect.poll(() => query.getSnapshot().status).toBe('closed');
    expect(query.getSnapshot().error).toBeInstanceOf(StoreClosedError);
    const before = reads.length;
    await writer.appendEvent({ session, event: makeEvent() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads.length).toBe(before);
  });
});
