/**
 * `rewind` with ADK's semantics, on every kind of store: adk-js's `Runner.rewindAsync` cases one by
 * one (the event's shape, the state delta, `app:`/`user:` keys kept, artifacts restored as new
 * versions, `user:` artifacts kept, the two errors), the state `createSession` gave restored (not
 * nulled, unlike adk-python #4933), `temp:` keys, rewinding twice and across an earlier rewind, a
 * rewind racing another connection's append, and, over random histories, the state afterwards
 * equal to the fold of the events before the rewind point.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Event,
  InvalidInputError,
  InvocationNotFoundError,
  SessionNotFoundError,
  type SessionStore,
  StaleSessionError,
  withoutRewound,
} from '../../src/index.js';
import { storeRunner } from './with-store.js';

const T = 1_700_000_000_000;
let n = 0;
const fresh = () => ({ appName: 'rewind', userId: 'u', sessionId: `s${n++}` });

/** An event of invocation `inv` with these state and artifact deltas. */
function ev(inv: string, stateDelta: Record<string, unknown> = {}, artifactDelta: Record<string, number> = {}): Event {
  const i = n++;
  return {
    id: `e${i}`,
    invocationId: inv,
    author: 'user',
    timestamp: T + i,
    content: { role: 'user', parts: [{ text: `message ${i}` }] },
    actions: { stateDelta, artifactDelta, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
  };
}

const text = (s: string) => ({ inlineData: { mimeType: 'text/plain', data: btoa(s) } });

/** Session-scope state with `null` values left out: a rewind sets the keys it removes to `null`. */
function live(state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(state).filter(([k, v]) => v !== null && !k.startsWith('app:') && !k.startsWith('user:')),
  );
}

export function describeRewind(where: string, open: () => SessionStore): void {
  describe(`rewind, ${where}`, () => {
    const withStore = storeRunner(open);

    it('appends one user event with a fresh invocation naming the one rewound, deleting nothing', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [ev('inv1', { color: 'red' }), ev('inv2', { color: 'blue' }), ev('inv3', { size: 'large' })];
        await store.appendEvents({ session, events });
        const heard: string[][] = [];
        const stop = store.subscribe(key, (change) => heard.push(change.eventIds));
        const before = Date.now();
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        // Subscribers hear it as an append (live queries follow it).
        await expect.poll(() => heard).toContainEqual([rewound.id]);
        stop();
        expect(rewound.author).toBe('user');
        expect(rewound.invocationId).toMatch(/^e-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(rewound.actions?.rewindBeforeInvocationId).toBe('inv2');
        expect(rewound.timestamp).toBeGreaterThanOrEqual(before);
        expect(rewound.content).toBeUndefined();
        const stored = await store.getSession(key);
        expect(stored?.events).toEqual([...events, rewound]);
        expect(stored?.lastUpdateTime).toBe(rewound.timestamp);
        expect(withoutRewound(stored?.events ?? [])).toEqual([events[0]]);
      }));

    it('restores session state: keys changed since go back, keys made since become null', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [
            ev('inv1', { color: 'red' }),
            ev('inv2', { color: 'blue', shape: 'circle' }),
            ev('inv3', { size: 'large' }),
          ],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.stateDelta).toEqual({ color: 'red', shape: null, size: null });
        expect((await store.getSession(key))?.state).toEqual({ color: 'red', shape: null, size: null });
        // The session object appended through before the rewind is stale now.
        await expect(store.appendEvent({ session, event: ev('inv4', { color: 'blue' }) })).rejects.toBeInstanceOf(
          StaleSessionError,
        );
        expect((await store.getSession(key))?.state).toEqual({ color: 'red', shape: null, size: null });
      }));

    it('leaves app: and user: state as it is', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [
            ev('inv1', { color: 'red', 'app:setting': 'value1', 'user:pref': 'pref1' }),
            ev('inv2', { color: 'blue', 'app:setting': 'value2', 'user:pref': 'pref2' }),
          ],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.stateDelta).toEqual({ color: 'red' });
        expect((await store.getSession(key))?.state).toEqual({
          color: 'red',
          'app:setting': 'value2',
          'user:pref': 'pref2',
        });
      }));

    it('restores the state createSession gave, rather than nulling it', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession({
          ...key,
          state: { mood: 'calm', topic: 'tea', 'user:name': 'Ada' },
        });
        await store.appendEvents({
          session,
          events: [ev('inv1', { mood: 'happy' }), ev('inv2', { topic: 'cake', extra: 1 })],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv1' });
        expect(rewound.actions?.stateDelta).toEqual({ mood: 'calm', topic: 'tea', extra: null });
        expect((await store.getSession(key))?.state).toEqual({
          mood: 'calm',
          topic: 'tea',
          extra: null,
          'user:name': 'Ada',
        });
      }));

    it('keeps no initial state past its session: one made again under the same id starts empty', () =>
      withStore(async (store) => {
        const key = fresh();
        await store.createSession({ ...key, state: { a: 1 } });
        await store.deleteSession(key);
        const session = await store.createSession(key);
        await store.appendEvents({ session, events: [ev('inv1', { a: 2 })] });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv1' });
        expect(rewound.actions?.stateDelta).toEqual({ a: null });
      }));

    it('infers an imported session’s initial state: the keys no event set', () =>
      withStore(async (store) => {
        const key = fresh();
        const events = [ev('inv1', { mood: 'happy' }), ev('inv2', { topic: 'cake' })];
        await store.importSessions([
          {
            id: key.sessionId,
            appName: key.appName,
            userId: key.userId,
            state: { keep: 'x', mood: 'happy', topic: 'cake' },
            events,
            lastUpdateTime: T + 100,
          },
        ]);
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv1' });
        // `keep` no event set: it came with the session and stays; `mood` and `topic` events set.
        expect(rewound.actions?.stateDelta).toEqual({ mood: null, topic: null });
      }));

    it('treats __proto__ as a plain state key and artifact name', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: '__proto__' };
        await store.artifacts.saveArtifact({ ...file, artifact: text('made since') });
        const session = await store.createSession(key);
        await store.appendEvents({ session, events: [ev('inv1')] });
        await store.appendEvents({
          session,
          events: [ev('inv2', JSON.parse('{"__proto__": {"polluted": true}}'), JSON.parse('{"__proto__": 0}'))],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(Object.hasOwn(rewound.actions?.stateDelta ?? {}, '__proto__')).toBe(true);
        expect(rewound.actions?.stateDelta).toEqual(JSON.parse('{"__proto__": null}'));
        expect(rewound.actions?.artifactDelta).toEqual(JSON.parse('{"__proto__": 1}'));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }));

    it('never puts temp: keys in the delta', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [ev('inv1', { a: 1, 'temp:scratch': 'x' }), ev('inv2', { a: 2, 'temp:scratch': 'y' })],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.stateDelta).toEqual({ a: 1 });
      }));

    it('saves each changed artifact again as a new version holding its old bytes', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: 'file1.txt' };
        const customMetadata = { note: 'first draft' };
        expect(await store.artifacts.saveArtifact({ ...file, artifact: text('version0'), customMetadata })).toBe(0);
        expect(await store.artifacts.saveArtifact({ ...file, artifact: text('version1') })).toBe(1);
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [ev('inv1', {}, { 'file1.txt': 0 }), ev('inv2', {}, { 'file1.txt': 1 })],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.artifactDelta).toEqual({ 'file1.txt': 2 });
        expect(await store.artifacts.loadArtifact({ ...file, version: 2 })).toEqual(text('version0'));
        expect(await store.artifacts.loadArtifact(file)).toEqual(text('version0'));
        expect(await store.artifacts.listVersions(file)).toEqual([0, 1, 2]);
        expect(await store.artifacts.getArtifactVersion({ ...file, version: 2 })).toMatchObject({
          mimeType: 'text/plain',
          customMetadata,
        });
      }));

    it('saves an empty application/octet-stream version for one whose versions were deleted since', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: 'gone.txt' };
        await store.artifacts.saveArtifact({ ...file, artifact: text('version0') });
        await store.artifacts.saveArtifact({ ...file, artifact: text('version1') });
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [ev('inv1', {}, { 'gone.txt': 0 }), ev('inv2', {}, { 'gone.txt': 1 })],
        });
        await store.artifacts.deleteArtifact(file);
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.artifactDelta).toEqual({ 'gone.txt': 0 });
        expect(await store.artifacts.loadArtifact(file)).toEqual({
          inlineData: { mimeType: 'application/octet-stream', data: '' },
        });
      }));

    it('saves an artifact made since as an empty application/octet-stream version', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: 'newfile.txt' };
        const session = await store.createSession(key);
        await store.appendEvents({ session, events: [ev('inv1')] });
        expect(await store.artifacts.saveArtifact({ ...file, artifact: text('new file') })).toBe(0);
        await store.appendEvents({ session, events: [ev('inv2', {}, { 'newfile.txt': 0 })] });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.artifactDelta).toEqual({ 'newfile.txt': 1 });
        expect(await store.artifacts.loadArtifact(file)).toEqual({
          inlineData: { mimeType: 'application/octet-stream', data: '' },
        });
      }));

    it('leaves user: artifacts alone', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: 'user:profile.txt' };
        await store.artifacts.saveArtifact({ ...file, artifact: text('profile0') });
        await store.artifacts.saveArtifact({ ...file, artifact: text('profile1') });
        const session = await store.createSession(key);
        await store.appendEvents({
          session,
          events: [ev('inv1', {}, { 'user:profile.txt': 0 }), ev('inv2', {}, { 'user:profile.txt': 1 })],
        });
        const rewound = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(rewound.actions?.artifactDelta).toEqual({});
        expect(await store.artifacts.listVersions(file)).toEqual([0, 1]);
        expect(await store.artifacts.loadArtifact(file)).toEqual(text('profile1'));
      }));

    it('refuses an unknown invocation (InvocationNotFoundError), an unknown session (SessionNotFoundError), bad input', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        await store.appendEvents({ session, events: [ev('inv1', { a: 1 })] });
        const missing = store.rewind({ ...key, beforeInvocationId: 'no-such-invocation' });
        await expect(missing).rejects.toBeInstanceOf(InvocationNotFoundError);
        await expect(missing).rejects.toMatchObject({
          code: 'INVOCATION_NOT_FOUND',
          message: 'Invocation ID not found: no-such-invocation',
        });
        expect((await store.getSession(key))?.events).toHaveLength(1);
        await expect(store.rewind({ ...fresh(), beforeInvocationId: 'inv1' })).rejects.toBeInstanceOf(
          SessionNotFoundError,
        );
        await expect(store.rewind({ ...key, beforeInvocationId: '' })).rejects.toBeInstanceOf(InvalidInputError);
        await expect(store.rewind(key as never)).rejects.toThrow(/rewind.*beforeInvocationId/);
      }));

    it('rewinds twice, and across an earlier rewind, as the fold of the events before the point', () =>
      withStore(async (store) => {
        const key = fresh();
        let session = await store.createSession(key);
        await store.appendEvents({ session, events: [ev('inv1', { color: 'red' }), ev('inv2', { color: 'blue' })] });
        const first = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        // Rewinding to the same point again: nothing left to undo in state, one more rewind event.
        const again = await store.rewind({ ...key, beforeInvocationId: 'inv2' });
        expect(again.actions?.stateDelta).toEqual({});
        session = (await store.getSession(key)) as typeof session;
        await store.appendEvents({ session, events: [ev('inv3', { color: 'green', size: 'L' })] });
        // Back before inv3: the state the earlier rewinds left.
        const across = await store.rewind({ ...key, beforeInvocationId: 'inv3' });
        expect(across.actions?.stateDelta).toEqual({ color: 'red', size: null });
        // Back before inv1: before everything, the rewinds too.
        const all = await store.rewind({ ...key, beforeInvocationId: 'inv1' });
        expect(all.actions?.stateDelta).toEqual({ color: null });
        const stored = await store.getSession(key);
        expect(stored?.state).toEqual({ color: null, size: null });
        expect(stored?.events.map((e) => e.actions?.rewindBeforeInvocationId ?? e.invocationId)).toEqual([
          'inv1',
          'inv2',
          first.actions?.rewindBeforeInvocationId,
          again.actions?.rewindBeforeInvocationId,
          'inv3',
          'inv3',
          'inv1',
        ]);
        expect(withoutRewound(stored?.events ?? [])).toEqual([]);
      }));

    it('racing an append, rewinds on what that append wrote, never on a stale read', () =>
      withStore(async (store) => {
        for (let round = 0; round < 24; round++) {
          const key = fresh();
          const session = await store.createSession({ ...key, state: { base: 0 } });
          await store.appendEvents({ session, events: [ev('inv1', { a: 1 }), ev('inv2', { a: 2, b: 2 })] });
          const late = ev('inv3', { late: round });
          // The append starts a little later each round, so some land between the rewind's read and its write.
          const [rewound, appended] = await Promise.allSettled([
            store.rewind({ ...key, beforeInvocationId: 'inv2' }),
            (async () => {
              for (let i = 0; i < round; i++) await (i % 2 ? Promise.resolve() : new Promise((r) => setTimeout(r, 0)));
              return store.appendEvent({ session, event: late });
            })(),
          ]);
          expect(rewound.status).toBe('fulfilled');
          const stored = (await store.getSession(key)) as typeof session;
          const ids = stored.events.map((e) => e.id);
          const rewindAt = ids.indexOf((rewound as PromiseFulfilledResult<Event>).value.id);
          const lateAt = ids.indexOf(late.id);
          // Whatever the order, the state is the fold of the stored history: a rewind after the
          // append undid it too; an append after the rewind (refused as stale otherwise) stands.
          if (appended.status === 'fulfilled' && lateAt > rewindAt) {
            expect(live(stored.state)).toEqual({ base: 0, a: 1, late: round });
          } else {
            expect(live(stored.state)).toEqual({ base: 0, a: 1 });
          }
        }
      }));

    it('over random histories: session state afterwards is the fold of the events before the point', async () => {
      const store = open();
      const keys = fc.constantFrom('a', 'b', 'c', 'app:x', 'user:y', 'temp:z');
      const value = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null));
      const delta = fc.dictionary(keys, value, { maxKeys: 3 });
      const history = fc.record({
        initial: fc.dictionary(fc.constantFrom('a', 'b', 'd', 'user:y'), fc.integer({ min: 0, max: 3 }), {
          maxKeys: 3,
        }),
        invocations: fc.array(fc.array(delta, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        // Rewinds already in the history: after which invocation, and to which.
        rewinds: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 2 }),
        target: fc.nat(),
      });
      try {
        await fc.assert(
          fc.asyncProperty(history, async ({ initial, invocations, rewinds, target }) => {
            const key = fresh();
            let session = await store.createSession({ ...key, state: initial });
            for (const [i, deltas] of invocations.entries()) {
              await store.appendEvents({ session, events: deltas.map((d) => ev(`inv${i}`, d)) });
              for (const [after, to] of rewinds) {
                if (after % invocations.length === i) {
                  await store.rewind({ ...key, beforeInvocationId: `inv${to % (i + 1)}` });
                  session = (await store.getSession(key)) as typeof session;
                }
              }
            }
            const shared = async () => [await store.getAppState(key), await store.getUserState(key)];
            const sharedBefore = await shared();
            const stored = (await store.getSession(key)) as typeof session;
            const beforeInvocationId = `inv${target % invocations.length}`;
            const point = stored.events.findIndex((e) => e.invocationId === beforeInvocationId);
            // The fold: the initial own state, then each earlier event's own keys, null removing.
            const expected: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(initial)) if (!k.includes(':')) expected[k] = v;
            for (const e of stored.events.slice(0, point)) {
              for (const [k, v] of Object.entries(e.actions?.stateDelta ?? {})) {
                if (k.includes(':')) continue;
                if (v === null) delete expected[k];
                else expected[k] = v;
              }
            }
            const rewound = await store.rewind({ ...key, beforeInvocationId });
            expect(Object.keys(rewound.actions?.stateDelta ?? {}).filter((k) => k.includes(':'))).toEqual([]);
            expect(live((await store.getSession(key))?.state ?? {})).toEqual(expected);
            expect(await shared()).toEqual(sharedBefore);
          }),
          { numRuns: 40 },
        );
      } finally {
        await store.close();
      }
    }, 60_000);
  });
}
