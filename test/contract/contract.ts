/**
 * The session-service contract (shared/adk-contract.md) as one parametric suite.
 * It runs against anything with the ADK method shapes: the in-thread service
 * over fake-indexeddb or real IndexedDB, and the worker client.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  type Event,
  InvalidInputError,
  type Session,
  SessionNotFoundError,
  type SessionService,
  SessionStoreError,
  StaleSessionError,
} from '../../src/index.js';

/** One database; `open` gives a new instance over it, as a second tab would. */
export interface ContractDatabase {
  open(): Promise<SessionService> | SessionService;
  /** Removes the database once the test's instances are closed. */
  dispose?(): Promise<void>;
}

let clock = 1_700_000_000_000;
/** An event with a fresh id and timestamp; `over` replaces fields. */
export function makeEvent(over: Partial<Event> & { stateDelta?: Record<string, unknown> } = {}): Event {
  const { stateDelta, ...rest } = over;
  clock += 1;
  return {
    id: `e-${clock}-${Math.random().toString(36).slice(2, 8)}`,
    invocationId: 'inv-1',
    author: 'user',
    timestamp: clock,
    content: { role: 'user', parts: [{ text: `message ${clock}` }] },
    actions: {
      stateDelta: stateDelta ?? {},
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    },
    ...rest,
  };
}

const APP = 'app';
const USER = 'user-1';

export function describeContract(
  label: string,
  makeDatabase: () => Promise<ContractDatabase> | ContractDatabase,
): void {
  describe(`ADK session contract: ${label}`, () => {
    let database: ContractDatabase;
    let opened: SessionService[];
    let store: SessionService;
    const open = async (): Promise<SessionService> => {
      const s = await database.open();
      opened.push(s);
      return s;
    };

    beforeEach(async () => {
      database = await makeDatabase();
      opened = [];
      store = await open();
    });

    afterEach(async () => {
      for (const s of opened) await s.close().catch(() => {});
      await database.dispose?.();
    });

    describe('createSession', () => {
      it('returns the session with the given ids, empty events and creation time in ms', async () => {
        const before = Date.now();
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { a: 1 } });
        expect(s).toMatchObject({ id: 's1', appName: APP, userId: USER, state: { a: 1 }, events: [] });
        expect(s.lastUpdateTime).toBeGreaterThanOrEqual(before);
        expect(s.lastUpdateTime).toBeLessThanOrEqual(Date.now());
      });

      it('generates a UUID when no id is given', async () => {
        const s = await store.createSession({ appName: APP, userId: USER });
        expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(await store.getSession({ appName: APP, userId: USER, sessionId: s.id })).toBeDefined();
      });

      it('sends app: and user: keys of the initial state to the shared scopes and never stores temp:', async () => {
        await store.createSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          state: { 'app:theme': 'dark', 'user:name': 'Ada', 'temp:x': 1, own: true },
        });
        expect(await store.getAppState({ appName: APP })).toEqual({ theme: 'dark' });
        expect(await store.getUserState({ appName: APP, userId: USER })).toEqual({ name: 'Ada' });
        const other = await store.createSession({ appName: APP, userId: USER, sessionId: 's2' });
        expect(other.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ada' });
        const s1 = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(s1?.state).toEqual({ 'app:theme': 'dark', 'user:name': 'Ada', own: true });
      });

      it('rejects an existing id for the same app and user with "already exists" and changes nothing', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { v: 1 } });
        const again = store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { v: 2, 'app:x': 1 } });
        await expect(again).rejects.toThrow(/already exists/);
        await expect(again).rejects.toBeInstanceOf(AlreadyExistsError);
        const s = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(s?.state).toEqual({ v: 1 });
        expect(await store.getAppState({ appName: APP })).toEqual({});
      });

      it('treats the same id under another user or app as a different session', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { who: 'a' } });
        await store.createSession({ appName: APP, userId: 'user-2', sessionId: 's1', state: { who: 'b' } });
        await store.createSession({ appName: 'other-app', userId: USER, sessionId: 's1', state: { who: 'c' } });
        const get = (appName: string, userId: string) => store.getSession({ appName, userId, sessionId: 's1' });
        expect((await get(APP, USER))?.state).toEqual({ who: 'a' });
        expect((await get(APP, 'user-2'))?.state).toEqual({ who: 'b' });
        expect((await get('other-app', USER))?.state).toEqual({ who: 'c' });
      });

      it('lets exactly one of two concurrent creates of the same id win, across instances', async () => {
        const second = await open();
        const results = await Promise.allSettled([
          store.createSession({ appName: APP, userId: USER, sessionId: 'race', state: { by: 1 } }),
          second.createSession({ appName: APP, userId: USER, sessionId: 'race', state: { by: 2 } }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(String((lost[0] as PromiseRejectedResult).reason)).toMatch(/already exists/);
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 'race' });
        expect(stored?.state).toEqual((won[0] as PromiseFulfilledResult<Session>).value.state);
      });
    });

    describe('getSession', () => {
      it('returns undefined for an unknown id and for a known id with the wrong app or user', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(await store.getSession({ appName: APP, userId: USER, sessionId: 'nope' })).toBeUndefined();
        expect(await store.getSession({ appName: APP, userId: 'intruder', sessionId: 's1' })).toBeUndefined();
        expect(await store.getSession({ appName: 'other', userId: USER, sessionId: 's1' })).toBeUndefined();
      });

      it('numRecentEvents keeps the last n events, 0 keeps none, and neither changes state', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const events = [];
        for (let i = 0; i < 5; i++) {
          const e = makeEvent({ stateDelta: { [`k${i}`]: i } });
          events.push(e.id);
          await store.appendEvent({ session: s, event: e });
        }
        const last2 = await store.getSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          config: { numRecentEvents: 2 },
        });
        expect(last2?.events.map((e) => e.id)).toEqual(events.slice(3));
        expect(last2?.state).toEqual({ k0: 0, k1: 1, k2: 2, k3: 3, k4: 4 });
        const none = await store.getSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          config: { numRecentEvents: 0 },
        });
        expect(none?.events).toEqual([]);
        expect(none?.state).toEqual(last2?.state);
        const more = await store.getSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          config: { numRecentEvents: 50 },
        });
        expect(more?.events.map((e) => e.id)).toEqual(events);
      });

      it('rejects a negative or fractional numRecentEvents as invalid input', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await expect(
          store.getSession({ appName: APP, userId: USER, sessionId: 's1', config: { numRecentEvents: -1 } }),
        ).rejects.toThrow(/numRecentEvents/);
        await expect(
          store.getSession({ appName: APP, userId: USER, sessionId: 's1', config: { numRecentEvents: 1.5 } }),
        ).rejects.toBeInstanceOf(InvalidInputError);
      });

      it('afterTimestamp keeps events at or after t; with numRecentEvents, their intersection', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const stamps = [100, 300, 200, 400, 300];
        for (const [i, timestamp] of stamps.entries()) {
          await store.appendEvent({ session: s, event: makeEvent({ id: `e${i}`, timestamp }) });
        }
        const get = (config: object) => store.getSession({ appName: APP, userId: USER, sessionId: 's1', config });
        expect((await get({ afterTimestamp: 300 }))?.events.map((e) => e.id)).toEqual(['e1', 'e3', 'e4']);
        expect((await get({ afterTimestamp: 301 }))?.events.map((e) => e.id)).toEqual(['e3']);
        expect((await get({ afterTimestamp: 300, numRecentEvents: 3 }))?.events.map((e) => e.id)).toEqual(['e3', 'e4']);
        expect((await get({ afterTimestamp: 1000 }))?.events).toEqual([]);
      });

      it('returns copies: mutating a returned session changes nothing stored', async () => {
        const s = await store.createSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          state: { nested: { a: 1 } },
        });
        await store.appendEvent({ session: s, event: makeEvent({ id: 'e1' }) });
        const got = (await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        (got.state.nested as { a: number }).a = 99;
        got.state.extra = true;
        (got.events[0] as Event).author = 'mallory';
        got.events.push(makeEvent());
        const again = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(again?.state).toEqual({ nested: { a: 1 } });
        expect(again?.events).toHaveLength(1);
        expect(again?.events[0]?.author).toBe('user');
      });
    });

    describe('appendEvent', () => {
      it('stores the event and returns it; every field round-trips unchanged', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const event = {
          ...makeEvent({ id: 'e1' }),
          content: {
            role: 'model',
            parts: [
              { text: 'hi' },
              { functionCall: { id: 'c1', name: 'lookup', args: { q: 'x', n: [1, 2, { deep: null }] } } },
              { functionResponse: { id: 'c1', name: 'lookup', response: { ok: true } } },
              { inlineData: { mimeType: 'image/png', data: 'aGVsbG8=' } },
            ],
          },
          partial: false,
          turnComplete: true,
          branch: 'root.child',
          longRunningToolIds: ['c1'],
          errorCode: 'E',
          errorMessage: 'msg',
          interrupted: false,
          usageMetadata: { promptTokenCount: 3 },
          groundingMetadata: { webSearchQueries: ['q'] },
          customMetadata: { tag: 'x' },
          someFutureField: { kept: [1, 'two'] },
        } as Event;
        const returned = await store.appendEvent({ session: s, event });
        expect(returned).toEqual(event);
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events).toEqual([event]);
      });

      it('returns a partial event as is, with no effect at all', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const before = s.lastUpdateTime;
        const event = makeEvent({ partial: true, stateDelta: { a: 1, 'app:b': 2 } });
        expect(await store.appendEvent({ session: s, event })).toBe(event);
        expect(s.events).toEqual([]);
        expect(s.state).toEqual({});
        expect(s.lastUpdateTime).toBe(before);
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events).toEqual([]);
        expect(stored?.lastUpdateTime).toBe(before);
        expect(await store.getAppState({ appName: APP })).toEqual({});
      });

      it('rejects an unknown or deleted session with "not found"', async () => {
        const ghost: Session = { id: 'ghost', appName: APP, userId: USER, state: {}, events: [], lastUpdateTime: 0 };
        const unknown = store.appendEvent({ session: ghost, event: makeEvent() });
        await expect(unknown).rejects.toThrow(/not found/);
        await expect(unknown).rejects.toBeInstanceOf(SessionNotFoundError);
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await store.deleteSession({ appName: APP, userId: USER, sessionId: 's1' });
        await expect(store.appendEvent({ session: s, event: makeEvent() })).rejects.toThrow(/not found/);
        expect(await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })).toBeUndefined();
      });

      it('applies the state delta to the three scopes and stores temp: nowhere', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const event = makeEvent({ stateDelta: { step: 1, 'app:count': 5, 'user:name': 'Ada', 'temp:scratch': 'x' } });
        await store.appendEvent({ session: s, event });
        expect(await store.getAppState({ appName: APP })).toEqual({ count: 5 });
        expect(await store.getUserState({ appName: APP, userId: USER })).toEqual({ name: 'Ada' });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.state).toEqual({ step: 1, 'app:count': 5, 'user:name': 'Ada' });
        expect(stored?.events[0]?.actions?.stateDelta).toEqual({ step: 1, 'app:count': 5, 'user:name': 'Ada' });
        const sibling = await store.createSession({ appName: APP, userId: USER, sessionId: 's2' });
        expect(sibling.state).toEqual({ 'app:count': 5, 'user:name': 'Ada' });
        const stranger = await store.createSession({ appName: APP, userId: 'user-2', sessionId: 's3' });
        expect(stranger.state).toEqual({ 'app:count': 5 });
      });

      it('updates the given session object in place, temp: keys included, and sets lastUpdateTime', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const event = makeEvent({ timestamp: 1_800_000_000_123, stateDelta: { a: 1, 'user:u': 2, 'temp:t': 3 } });
        const returned = await store.appendEvent({ session: s, event });
        expect(s.events).toHaveLength(1);
        expect(s.events[0]).toBe(returned);
        expect(s.state).toEqual({ a: 1, 'user:u': 2, 'temp:t': 3 });
        expect(s.lastUpdateTime).toBe(1_800_000_000_123);
        expect(returned.actions?.stateDelta).toEqual({ a: 1, 'user:u': 2 });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.lastUpdateTime).toBe(1_800_000_000_123);
      });

      it('replaces an entry with the same id in session.events instead of appending', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const event = makeEvent({ id: 'pre' });
        s.events.push({ ...event });
        await store.appendEvent({ session: s, event });
        expect(s.events).toHaveLength(1);
        expect(s.events[0]).toBe(event);
      });

      it('replaces a stored event with the same id instead of adding a second, keeping its place', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await store.appendEvent({ session: s, event: makeEvent({ id: 'a' }) });
        await store.appendEvent({ session: s, event: makeEvent({ id: 'b' }) });
        const fixed = makeEvent({ id: 'a', author: 'model', stateDelta: { fixed: true } });
        await store.appendEvent({ session: s, event: fixed });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events.map((e) => e.id)).toEqual(['a', 'b']);
        expect(stored?.events[0]?.author).toBe('model');
        expect(stored?.state).toEqual({ fixed: true });
        expect(s.events.map((e) => e.id)).toEqual(['a', 'b']);
      });

      it('keeps append order when timestamps tie or go backwards', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          const e = makeEvent({ id: `z${20 - i}-${i}`, timestamp: i % 3 === 0 ? 5000 : 5000 - i });
          ids.push(e.id);
          await store.appendEvent({ session: s, event: e });
        }
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events.map((e) => e.id)).toEqual(ids);
      });

      it('stores null as a value and replaces values whole, without deep merge', async () => {
        const s = await store.createSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          state: { obj: { a: 1, b: 2 }, n: 1 },
        });
        await store.appendEvent({ session: s, event: makeEvent({ stateDelta: { obj: { c: 3 }, n: null } }) });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.state).toEqual({ obj: { c: 3 }, n: null });
        expect(Object.hasOwn(stored?.state ?? {}, 'n')).toBe(true);
      });

      it('keeps __proto__, constructor and prototype as plain keys', async () => {
        const state = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "prototype": 2}');
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state });
        const delta = JSON.parse('{"user:__proto__": {"polluted": true}, "app:constructor": "x"}');
        await store.appendEvent({ session: s, event: makeEvent({ stateDelta: delta }) });
        const stored = (await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        expect(Object.getPrototypeOf(stored.state)).toBe(Object.prototype);
        expect(Object.keys(stored.state).sort()).toEqual(
          ['__proto__', 'app:constructor', 'constructor', 'prototype', 'user:__proto__'].sort(),
        );
        expect(Object.getOwnPropertyDescriptor(stored.state, '__proto__')?.value).toEqual({ polluted: true });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.keys(await store.getUserState({ appName: APP, userId: USER }))).toEqual(['__proto__']);
        expect(Object.keys(s.state)).toContain('user:__proto__');
      });

      it('lets many un-awaited appends from one caller to one session all succeed, in call order', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const events = Array.from({ length: 30 }, (_, i) => makeEvent({ stateDelta: { count: i } }));
        await Promise.all(events.map((event) => store.appendEvent({ session: s, event })));
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
        expect(stored?.state).toEqual({ count: 29 });
        expect(s.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
        await store.appendEvent({ session: s, event: makeEvent() });
      });
    });

    describe('stale sessions', () => {
      it('rejects an append through an older copy with StaleSessionError and persists nothing of it', async () => {
        const other = await open();
        const mine = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const theirs = (await other.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        await other.appendEvent({ session: theirs, event: makeEvent({ id: 'theirs', stateDelta: { by: 'them' } }) });
        const attempt = store.appendEvent({
          session: mine,
          event: makeEvent({ id: 'mine', stateDelta: { by: 'me', 'app:x': 1 } }),
        });
        await expect(attempt).rejects.toThrow(/modified in storage/);
        await expect(attempt).rejects.toBeInstanceOf(StaleSessionError);
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events.map((e) => e.id)).toEqual(['theirs']);
        expect(stored?.state).toEqual({ by: 'them' });
        expect(await store.getAppState({ appName: APP })).toEqual({});
        expect(mine.events).toEqual([]);
      });

      it('accepts the retry after reloading with getSession', async () => {
        const other = await open();
        const mine = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const theirs = (await other.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        await other.appendEvent({ session: theirs, event: makeEvent({ id: 'theirs' }) });
        const event = makeEvent({ id: 'mine' });
        await expect(store.appendEvent({ session: mine, event })).rejects.toThrow(StaleSessionError);
        const fresh = (await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        await store.appendEvent({ session: fresh, event });
        const stored = await other.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events.map((e) => e.id)).toEqual(['theirs', 'mine']);
      });

      it('does not call a filtered or locally edited session stale', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        for (let i = 0; i < 3; i++) await store.appendEvent({ session: s, event: makeEvent() });
        const filtered = (await store.getSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          config: { numRecentEvents: 1 },
        })) as Session;
        await store.appendEvent({ session: filtered, event: makeEvent() });
        const edited = (await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        edited.events.length = 0;
        await store.appendEvent({ session: edited, event: makeEvent() });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events).toHaveLength(5);
      });

      it('detects a session deleted and created again under the same id', async () => {
        const old = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await store.deleteSession({ appName: APP, userId: USER, sessionId: 's1' });
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await expect(store.appendEvent({ session: old, event: makeEvent() })).rejects.toThrow(/modified in storage/);
      });

      it('loses nothing when two instances append concurrently with reload-and-retry', async () => {
        const other = await open();
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const writer = async (svc: SessionService, tag: string): Promise<string[]> => {
          const ids: string[] = [];
          let session = (await svc.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
          for (let i = 0; i < 15; i++) {
            const event = makeEvent({ id: `${tag}-${i}`, stateDelta: { [`${tag}`]: i, 'app:total': i } });
            for (;;) {
              try {
                await svc.appendEvent({ session, event });
                break;
              } catch (error) {
                if (!(error instanceof StaleSessionError)) throw error;
                session = (await svc.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
              }
            }
            ids.push(event.id);
          }
          return ids;
        };
        const [a, b] = await Promise.all([writer(store, 'a'), writer(other, 'b')]);
        const stored = (await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })) as Session;
        const storedIds = stored.events.map((e) => e.id);
        expect(storedIds.slice().sort()).toEqual([...a, ...b].sort());
        expect(storedIds.filter((id) => id.startsWith('a-'))).toEqual(a);
        expect(storedIds.filter((id) => id.startsWith('b-'))).toEqual(b);
        expect(stored.state).toMatchObject({ a: 14, b: 14 });
      });
    });

    describe('listSessions', () => {
      async function seed(times: Record<string, [string, number]>): Promise<void> {
        for (const [id, [userId, timestamp]] of Object.entries(times)) {
          const s = await store.createSession({ appName: APP, userId, sessionId: id, state: { own: id } });
          await store.appendEvent({ session: s, event: makeEvent({ timestamp }) });
        }
      }

      it("lists a user's sessions with merged state and no events, oldest first by default", async () => {
        await seed({ b: [USER, 300], a: [USER, 100], c: [USER, 200], x: ['user-2', 50] });
        await store.createSession({
          appName: APP,
          userId: USER,
          sessionId: 'shared',
          state: { 'app:k': 1, 'user:u': 2 },
        });
        await store.deleteSession({ appName: APP, userId: USER, sessionId: 'shared' });
        const listed = await store.listSessions({ appName: APP, userId: USER });
        expect(listed.sessions.map((s) => s.id)).toEqual(['a', 'c', 'b']);
        expect(listed.sessions[0]).toMatchObject({ appName: APP, userId: USER, events: [], lastUpdateTime: 100 });
        expect(listed.sessions[0]?.state).toEqual({ own: 'a', 'app:k': 1, 'user:u': 2 });
        expect(listed).toMatchObject({ page: 1, limit: 3, totalItems: 3, totalPages: 1 });
      });

      it("lists every user's sessions when userId is omitted, each with its own user state", async () => {
        await seed({ a: [USER, 100], b: ['user-2', 200] });
        const s = (await store.getSession({ appName: APP, userId: 'user-2', sessionId: 'b' })) as Session;
        await store.appendEvent({
          session: s,
          event: makeEvent({ timestamp: 200, stateDelta: { 'user:mine': 'two' } }),
        });
        const listed = await store.listSessions({ appName: APP });
        expect(listed.sessions.map((x) => [x.userId, x.id])).toEqual([
          [USER, 'a'],
          ['user-2', 'b'],
        ]);
        expect(listed.sessions[0]?.state).toEqual({ own: 'a' });
        expect(listed.sessions[1]?.state).toEqual({ own: 'b', 'user:mine': 'two' });
        expect(listed.totalItems).toBe(2);
      });

      it('orders by lastUpdateTime both ways with ties by id ascending', async () => {
        await seed({ d: [USER, 200], b: [USER, 200], a: [USER, 100], c: [USER, 200], e: [USER, 300] });
        const asc = await store.listSessions({ appName: APP, userId: USER, order: 'asc' });
        expect(asc.sessions.map((s) => s.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
        const desc = await store.listSessions({ appName: APP, userId: USER, order: 'desc' });
        expect(desc.sessions.map((s) => s.id)).toEqual(['e', 'b', 'c', 'd', 'a']);
        const pages = [];
        for (let page = 1; page <= 3; page++) {
          const p = await store.listSessions({ appName: APP, userId: USER, order: 'desc', limit: 2, page });
          pages.push(...p.sessions.map((s) => s.id));
        }
        expect(pages).toEqual(['e', 'b', 'c', 'd', 'a']);
        const everyone = await store.listSessions({ appName: APP, order: 'desc', limit: 3, offset: 1 });
        expect(everyone.sessions.map((s) => s.id)).toEqual(['b', 'c', 'd']);
      });

      it('paginates with page (1-based, wins over offset), offset and limit', async () => {
        const times: Record<string, [string, number]> = {};
        for (let i = 0; i < 7; i++) times[`s${i}`] = [USER, 1000 + i];
        await seed(times);
        const p2 = await store.listSessions({ appName: APP, userId: USER, limit: 3, page: 2, offset: 0 });
        expect(p2.sessions.map((s) => s.id)).toEqual(['s3', 's4', 's5']);
        expect(p2).toMatchObject({ page: 2, limit: 3, totalItems: 7, totalPages: 3 });
        const byOffset = await store.listSessions({ appName: APP, userId: USER, limit: 2, offset: 5 });
        expect(byOffset.sessions.map((s) => s.id)).toEqual(['s5', 's6']);
        expect(byOffset).toMatchObject({ page: 3, limit: 2, totalItems: 7, totalPages: 4 });
        const past = await store.listSessions({ appName: APP, userId: USER, limit: 3, page: 9 });
        expect(past.sessions).toEqual([]);
        const offsetOnly = await store.listSessions({ appName: APP, userId: USER, offset: 4 });
        expect(offsetOnly.sessions.map((s) => s.id)).toEqual(['s4', 's5', 's6']);
        await expect(store.listSessions({ appName: APP, page: 2 })).rejects.toThrow(/page/);
      });

      it('reports an empty listing as page 1 of 0', async () => {
        expect(await store.listSessions({ appName: APP, userId: USER })).toEqual({
          sessions: [],
          page: 1,
          limit: 0,
          totalItems: 0,
          totalPages: 0,
        });
      });

      it('returns sessions that can be appended through', async () => {
        await seed({ a: [USER, 100] });
        const [listed] = (await store.listSessions({ appName: APP, userId: USER })).sessions;
        await store.appendEvent({ session: listed as Session, event: makeEvent({ id: 'via-list' }) });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 'a' });
        expect(stored?.events.map((e) => e.id)).toContain('via-list');
      });
    });

    describe('deleteSession', () => {
      it('removes the session and its events and touches nothing else', async () => {
        const s1 = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const s2 = await store.createSession({ appName: APP, userId: USER, sessionId: 's2' });
        await store.appendEvent({ session: s1, event: makeEvent({ stateDelta: { 'app:a': 1, 'user:u': 1, own: 1 } }) });
        await store.appendEvent({ session: s2, event: makeEvent({ id: 'keep' }) });
        await store.deleteSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })).toBeUndefined();
        expect(await store.getAppState({ appName: APP })).toEqual({ a: 1 });
        expect(await store.getUserState({ appName: APP, userId: USER })).toEqual({ u: 1 });
        const kept = await store.getSession({ appName: APP, userId: USER, sessionId: 's2' });
        expect(kept?.events.map((e) => e.id)).toEqual(['keep']);
        expect((await store.listSessions({ appName: APP, userId: USER })).totalItems).toBe(1);
      });

      it('is a no-op for an unknown id', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        await expect(store.deleteSession({ appName: APP, userId: USER, sessionId: 'nope' })).resolves.toBeUndefined();
        await store.deleteSession({ appName: APP, userId: 'someone-else', sessionId: 's1' });
        expect(await store.getSession({ appName: APP, userId: USER, sessionId: 's1' })).toBeDefined();
      });

      it('makes a later create with the same id a fresh session', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { old: true } });
        await store.appendEvent({ session: s, event: makeEvent() });
        await store.deleteSession({ appName: APP, userId: USER, sessionId: 's1' });
        const fresh = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(fresh.state).toEqual({});
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.events).toEqual([]);
        expect(stored?.state).toEqual({});
      });
    });

    describe('getOrCreateSession', () => {
      it('returns the stored session when it exists and creates it otherwise', async () => {
        const created = await store.getOrCreateSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          state: { v: 1 },
        });
        expect(created.state).toEqual({ v: 1 });
        await store.appendEvent({ session: created, event: makeEvent({ id: 'e1' }) });
        const found = await store.getOrCreateSession({ appName: APP, userId: USER, sessionId: 's1', state: { v: 2 } });
        expect(found.state).toEqual({ v: 1 });
        expect(found.events.map((e) => e.id)).toEqual(['e1']);
        const generated = await store.getOrCreateSession({ appName: APP, userId: USER });
        expect(generated.id).not.toBe('s1');
      });
    });

    describe('persistence', () => {
      it('keeps everything across closing and reopening, and never temp:', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1', state: { 'temp:boot': 1 } });
        await store.appendEvent({
          session: s,
          event: makeEvent({ id: 'e1', stateDelta: { a: 1, 'app:b': 2, 'user:c': 3, 'temp:d': 4 } }),
        });
        await store.close();
        const reopened = await open();
        const stored = await reopened.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(stored?.state).toEqual({ a: 1, 'app:b': 2, 'user:c': 3 });
        expect(stored?.events.map((e) => e.id)).toEqual(['e1']);
        expect(stored?.events[0]?.actions?.stateDelta).toEqual({ a: 1, 'app:b': 2, 'user:c': 3 });
      });

      it('rejects calls after close with a typed error', async () => {
        await store.close();
        const after = store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        await expect(after).rejects.toBeInstanceOf(SessionStoreError);
        await expect(after).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });
    });

    describe('bad input', () => {
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      class Thing {
        x = 1;
      }
      const badCreates: [string, unknown, RegExp][] = [
        ['missing appName', { userId: USER }, /appName/],
        ['non-string userId', { appName: APP, userId: 42 }, /userId/],
        ['empty sessionId', { appName: APP, userId: USER, sessionId: '' }, /sessionId.*empty/],
        [
          'sessionId with surrounding whitespace',
          { appName: APP, userId: USER, sessionId: ' s1 ' },
          /sessionId.*whitespace/,
        ],
        ['a function in state', { appName: APP, userId: USER, state: { f: () => 1 } }, /state\.f/],
        ['a Map in state', { appName: APP, userId: USER, state: { m: new Map([['a', 1]]) } }, /state\.m.*Map/],
        ['a bigint in state', { appName: APP, userId: USER, state: { b: 1n } }, /state\.b.*bigint/],
        ['undefined in state', { appName: APP, userId: USER, state: { u: undefined } }, /state\.u.*undefined/],
        ['NaN in state', { appName: APP, userId: USER, state: { n: Number.NaN } }, /state\.n.*finite/],
        ['a cyclic state', { appName: APP, userId: USER, state: cyclic }, /state\.self.*cycle/],
        ['a state that is an array', { appName: APP, userId: USER, state: [1] }, /state/],
        ['a too deep state', { appName: APP, userId: USER, state: deep(200) }, /state.*deeper/],
      ];
      for (const [what, request, message] of badCreates) {
        it(`rejects createSession with ${what}, naming the field, and stores nothing`, async () => {
          const attempt = store.createSession(request as never);
          await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
          await expect(attempt).rejects.toThrow(message);
          expect((await store.listSessions({ appName: APP })).totalItems).toBe(0);
        });
      }

      const badEvents: [string, (e: Event) => unknown, RegExp][] = [
        ['no id', ({ id: _, ...e }) => e, /event\.id/],
        ['no timestamp', ({ timestamp: _, ...e }) => e, /event\.timestamp/],
        ['a string timestamp', (e) => ({ ...e, timestamp: '2024' }), /event\.timestamp/],
        ['an Infinity timestamp', (e) => ({ ...e, timestamp: Number.POSITIVE_INFINITY }), /event\.timestamp/],
        ['a function in the delta', (e) => ({ ...e, actions: { stateDelta: { f: () => 1 } } }), /stateDelta\.f/],
        [
          'undefined as a state write',
          (e) => ({ ...e, actions: { stateDelta: { x: undefined } } }),
          /stateDelta\.x.*undefined/,
        ],
        [
          'undefined in an array',
          (e) => ({ ...e, content: { parts: [{ text: 'x', list: [1, undefined] }] } }),
          /content\.parts\[0\]\.list\[1\]/,
        ],
        ['a Map in customMetadata', (e) => ({ ...e, customMetadata: { m: new Map() } }), /customMetadata\.m/],
        [
          'an oversized text',
          (e) => ({ ...e, content: { parts: [{ text: 'x'.repeat(8 * 1024 * 1024 + 10) }] } }),
          /larger/,
        ],
      ];
      for (const [what, mangle, message] of badEvents) {
        it(`rejects appendEvent with an event with ${what}, naming the field, and changes nothing`, async () => {
          const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
          const attempt = store.appendEvent({ session: s, event: mangle(makeEvent()) as Event });
          await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
          await expect(attempt).rejects.toThrow(message);
          expect(s.events).toEqual([]);
          const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
          expect(stored?.events).toEqual([]);
          expect(stored?.lastUpdateTime).toBe(s.lastUpdateTime);
          await store.appendEvent({ session: s, event: makeEvent() });
        });
      }

      it('accepts events as ADK makes them: a symbol-keyed marker and undefined fields are not data', async () => {
        const s = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        // ADK's createEvent marks events with a symbol and leaves unset fields undefined;
        // a tool that returns nothing is answered with { result: undefined }.
        const event = {
          ...makeEvent({ stateDelta: { k: 1 } }),
          [Symbol.for('google.adk.event')]: true,
          branch: undefined,
          customMetadata: undefined,
          content: { role: 'user', parts: [{ functionResponse: { name: 'f', response: { result: undefined } } }] },
        } as Event;
        await store.appendEvent({ session: s, event });
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        expect(JSON.parse(JSON.stringify(stored?.events))).toEqual(JSON.parse(JSON.stringify([event])));
        expect(Object.getOwnPropertySymbols(stored?.events[0])).toEqual([]);
        expect(stored?.state).toEqual({ k: 1 });
      });

      it('keeps the JSON form of what JSON can carry: class instances as their fields, toJSON, Dates as ISO strings', async () => {
        // ADK's Runner puts class instances in events (a ToolConfirmation in a confirmation request);
        // ADK's persistent DatabaseSessionService keeps JSON.stringify(event): so does the store.
        const when = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
        const created = await store.createSession({
          appName: APP,
          userId: USER,
          sessionId: 's1',
          state: { thing: new Thing(), when, 'user:since': when },
        });
        expect(created.state).toEqual({ thing: { x: 1 }, when: when.toISOString(), 'user:since': when.toISOString() });
        const money = { toJSON: () => ({ cents: 500 }) };
        const event = makeEvent({ stateDelta: { paid: money, at: when } });
        event.content = {
          role: 'model',
          parts: [{ functionCall: { name: 'f', args: { confirmation: new Thing() } } }],
        };
        event.customMetadata = { seen: [when, new Thing()] };
        const returned = await store.appendEvent({ session: created, event });
        expect(returned).toBe(event);
        const stored = await store.getSession({ appName: APP, userId: USER, sessionId: 's1' });
        const json = JSON.parse(JSON.stringify(event));
        expect(stored?.events).toEqual([json]);
        expect(stored?.events[0]?.content?.parts?.[0]?.functionCall?.args?.confirmation).toEqual({ x: 1 });
        expect(Object.getPrototypeOf(stored?.events[0]?.customMetadata?.seen)).toBe(Array.prototype);
        expect(stored?.state).toEqual({
          thing: { x: 1 },
          when: when.toISOString(),
          'user:since': when.toISOString(),
          paid: { cents: 500 },
          at: when.toISOString(),
        });
      });

      it('rejects appendEvent without a usable session object', async () => {
        await expect(store.appendEvent({ session: null as never, event: makeEvent() })).rejects.toThrow(/session/);
        await expect(
          store.appendEvent({ session: { id: 's1', appName: APP } as never, event: makeEvent() }),
        ).rejects.toBeInstanceOf(InvalidInputError);
      });

      it('rejects non-object requests and bad listing options', async () => {
        await expect(store.getSession(undefined as never)).rejects.toBeInstanceOf(InvalidInputError);
        await expect(store.deleteSession({ appName: APP, userId: USER } as never)).rejects.toThrow(/sessionId/);
        await expect(store.listSessions({ appName: APP, limit: -1 })).rejects.toThrow(/limit/);
        await expect(store.listSessions({ appName: APP, order: 'sideways' as never })).rejects.toThrow(/order/);
        await expect(store.getUserState({ appName: APP } as never)).rejects.toThrow(/userId/);
      });
    });

    describe('errors', () => {
      it('carry a stable code and their class name', async () => {
        await store.createSession({ appName: APP, userId: USER, sessionId: 's1' });
        const error = await store.createSession({ appName: APP, userId: USER, sessionId: 's1' }).catch((e) => e);
        expect(error).toBeInstanceOf(SessionStoreError);
        expect(error).toMatchObject({ name: 'AlreadyExistsError', code: 'ALREADY_EXISTS' });
        const invalid = await store.createSession({ appName: '', userId: USER }).catch((e) => e);
        expect(invalid).toMatchObject({ name: 'InvalidInputError', code: 'INVALID_INPUT' });
      });
    });
  });
}

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}
