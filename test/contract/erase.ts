/**
 * `erase` on every kind of store: what an erased event keeps (id, invocation, author, time, place)
 * and loses (its content and every other field a person could be in), the mark `isErased` reads,
 * state left as it is, search and memory no longer finding the words, erasing by invocation,
 * idempotency, the errors (nothing erased by a failed call), `__proto__` ids, an append racing an
 * erase, an export and import of an erased session, and the change notice live queries follow.
 */
import { describe, expect, it } from 'vitest';
import {
  ERASED_METADATA_KEY,
  type Event,
  EventNotFoundError,
  exportSessionsToBlob,
  InvalidInputError,
  InvocationNotFoundError,
  importSessions,
  isErased,
  type Session,
  SessionNotFoundError,
  type SessionStore,
  type StoreChange,
  watchSession,
} from '../../src/index.js';

const T = 1_700_000_000_000;
let n = 0;
const fresh = () => ({ appName: 'erase', userId: 'u', sessionId: `s${n++}` });

/** An event of invocation `inv` saying `words`, with most of the fields an event can carry a person in. */
function said(inv: string, words: string, stateDelta: Record<string, unknown> = {}): Event {
  const i = n++;
  return {
    id: `e${i}`,
    invocationId: inv,
    author: i % 2 ? 'model' : 'user',
    timestamp: T + i,
    branch: 'root',
    content: {
      role: 'user',
      parts: [
        { text: words },
        { inlineData: { mimeType: 'text/plain', data: btoa(words) } },
        { functionCall: { id: `c${i}`, name: 'lookup', args: { q: words } } },
        { functionResponse: { id: `c${i}`, name: 'lookup', response: { found: words } } },
      ],
    },
    actions: {
      stateDelta,
      artifactDelta: { 'notes.txt': 0 },
      requestedAuthConfigs: { [`c${i}`]: { hint: words } },
      requestedToolConfirmations: {},
    },
    groundingMetadata: { webSearchQueries: [words] },
    customMetadata: { note: words },
    errorMessage: words,
    longRunningToolIds: [`c${i}`],
  };
}

export function describeErase(where: string, open: () => SessionStore): void {
  describe(`erase, ${where}`, () => {
    const withStore = async (test: (store: SessionStore) => Promise<void>) => {
      const store = open();
      try {
        await test(store);
      } finally {
        await store.close();
      }
    };

    it('removes what an event said, keeping its id, invocation, author, time and place, and marks it', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'alpha hello'), said('inv2', 'bravo private'), said('inv3', 'charlie later')];
        await store.appendEvents({ session, events });
        const before = Date.now();
        const result = await store.erase({ ...key, eventIds: [(events[1] as Event).id] });
        expect(result).toEqual({ eventIds: [events[1]?.id], erasedNow: [events[1]?.id] });
        const stored = (await store.getSession(key)) as Session;
        expect(stored.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
        expect(stored.events[0]).toEqual(events[0]);
        expect(stored.events[2]).toEqual(events[2]);
        const erased = stored.events[1] as Event;
        const at = (erased.customMetadata?.[ERASED_METADATA_KEY] as { at: number }).at;
        expect(at).toBeGreaterThanOrEqual(before);
        expect(erased).toEqual({
          id: events[1]?.id,
          invocationId: 'inv2',
          author: events[1]?.author,
          timestamp: events[1]?.timestamp,
          branch: 'root',
          actions: {
            stateDelta: {},
            artifactDelta: { 'notes.txt': 0 },
            requestedAuthConfigs: {},
            requestedToolConfirmations: {},
          },
          customMetadata: { [ERASED_METADATA_KEY]: { at } },
        });
        expect(JSON.stringify(erased)).not.toMatch(/bravo|private/);
        expect(stored.events.map(isErased)).toEqual([false, true, false]);
      }));

    it('keeps how a turn went (flags, codes, hand-offs) and drops compactions, usage and content, role and all', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const kept = {
          id: 'js-compaction',
          invocationId: 'inv1',
          author: 'agent',
          timestamp: T,
          partial: false,
          turnComplete: true,
          interrupted: true,
          errorCode: 'SAFETY',
        };
        const js: Event = {
          ...kept,
          isCompacted: true,
          startTime: T - 10,
          endTime: T - 1,
          isScratchpad: true,
          compactedContent: 'summary of a secret',
          usageMetadata: { promptTokenCount: 3 },
          errorMessage: 'blocked: a secret',
          content: { role: 'model', parts: [{ text: 'a secret', thought: true }] },
          actions: { transferToAgent: 'helper', escalate: true, skipSummarization: true, endOfAgent: true },
        };
        const py: Event = {
          id: 'py-compaction',
          invocationId: 'inv1',
          timestamp: T + 1,
          actions: {
            compaction: {
              startTimestamp: 1,
              endTimestamp: 2,
              compactedContent: { role: 'model', parts: [{ text: 'a secret' }] },
            },
            rewindBeforeInvocationId: 'inv0',
          },
        };
        await store.appendEvents({ session, events: [js, py] });
        await store.erase({ ...key, invocationId: 'inv1' });
        const [a, b] = (await store.getSession(key))?.events ?? [];
        const mark = (e: Event | undefined) => e?.customMetadata?.[ERASED_METADATA_KEY];
        expect(a).toEqual({
          ...kept,
          actions: {
            stateDelta: {},
            requestedAuthConfigs: {},
            requestedToolConfirmations: {},
            transferToAgent: 'helper',
            escalate: true,
            skipSummarization: true,
            endOfAgent: true,
          },
          customMetadata: { [ERASED_METADATA_KEY]: mark(a) },
        });
        expect(b).toEqual({
          id: 'py-compaction',
          invocationId: 'inv1',
          timestamp: T + 1,
          actions: {
            stateDelta: {},
            requestedAuthConfigs: {},
            requestedToolConfirmations: {},
            rewindBeforeInvocationId: 'inv0',
          },
          customMetadata: { [ERASED_METADATA_KEY]: mark(b) },
        });
      }));

    it('takes an erased compaction out of reads from the latest compaction: they start at the one before', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const plain = (id: string, t: number): Event => ({ id, invocationId: id, timestamp: t });
        const compaction = (id: string, t: number, end: number): Event => ({
          ...plain(id, t),
          isCompacted: true,
          startTime: T,
          endTime: end,
          compactedContent: `summary ${id}`,
        });
        const events = [
          plain('e1', T),
          compaction('c1', T + 1, T),
          plain('e2', T + 2),
          compaction('c2', T + 3, T + 2),
          plain('e3', T + 4),
        ];
        await store.appendEvents({ session, events });
        const latest = async () =>
          (await store.getSession({ ...key, config: { fromLatestCompaction: true } }))?.events.map((e) => e.id);
        expect(await latest()).toEqual(['c2', 'e3']);
        await store.erase({ ...key, eventIds: ['c2'] });
        expect(await latest()).toEqual(['c1', 'e2', 'c2', 'e3']);
      }));

    it('erases every event of an invocation, resolving their ids in order', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'one'), said('inv2', 'two'), said('inv2', 'three'), said('inv3', 'four')];
        await store.appendEvents({ session, events });
        const ids = events.map((e) => e.id);
        // An id named twice, and one the invocation names too, counts once.
        const result = await store.erase({
          ...key,
          invocationId: 'inv2',
          eventIds: [ids[3], ids[2], ids[3]] as string[],
        });
        expect(result.eventIds).toEqual([ids[1], ids[2], ids[3]]);
        expect(result.erasedNow).toEqual(result.eventIds);
        const stored = (await store.getSession(key)) as Session;
        expect(stored.events.map(isErased)).toEqual([false, true, true, true]);
        expect(stored.events.map((e) => e.invocationId)).toEqual(['inv1', 'inv2', 'inv2', 'inv3']);
        // An event of the invocation appended after the erase is not erased.
        const later = said('inv2', 'five');
        await store.appendEvent({ session, event: later });
        expect((await store.getSession(key))?.events.at(-1)).toEqual(later);
      }));

    it('leaves the session state as it is; an erased event keeps only the writes still in effect', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession({ ...key, state: { start: 1 } });
        const first = said('inv1', 'x', {
          city: 'Lyon',
          pet: 'cat',
          code: 'A-17',
          'user:name': 'Ada',
          'user:mood': 'calm',
          'app:theme': 'dark',
        });
        Object.defineProperty(first.actions?.stateDelta, '__proto__', { value: 'plain', enumerable: true });
        const later = said('inv2', 'y', { city: 'Oslo', code: null, 'user:mood': 'busy', pet: 'cat' });
        await store.appendEvents({ session, events: [first, later] });
        await store.erase({ ...key, invocationId: 'inv1' });
        const stored = (await store.getSession(key)) as Session;
        const state = {
          start: 1,
          city: 'Oslo',
          pet: 'cat',
          code: null,
          'user:name': 'Ada',
          'user:mood': 'busy',
          'app:theme': 'dark',
        };
        Object.defineProperty(state, '__proto__', { value: 'plain', enumerable: true });
        expect(stored.state).toEqual(state);
        // Overwritten since (city, user:mood) or set to null by an append (code): dropped. Still in
        // effect, the same value written again later included (pet): kept, the state shows them anyway.
        const kept = stored.events[0]?.actions?.stateDelta as Record<string, unknown>;
        expect(Object.keys(kept).sort()).toEqual(['__proto__', 'app:theme', 'pet', 'user:name']);
        expect(Object.hasOwn(kept, '__proto__') && kept.__proto__).toBe('plain');
        expect(kept).toMatchObject({ pet: 'cat', 'user:name': 'Ada', 'app:theme': 'dark' });
        expect(stored.events[0]?.actions?.requestedAuthConfigs).toEqual({});
        expect(stored.events[1]?.actions?.stateDelta).toEqual({
          city: 'Oslo',
          code: null,
          'user:mood': 'busy',
          pet: 'cat',
        });
        const [listed] = (await store.listSessions({ appName: key.appName, userId: key.userId })).sessions.filter(
          (s) => s.id === key.sessionId,
        );
        expect(listed?.state).toEqual(stored.state);
        expect(listed?.lastUpdateTime).toBe(session.lastUpdateTime);
      }));

    it('keeps the writes of a heavy state value and of keys another session overwrote as they stand at the erase', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const big = 'b'.repeat(5000);
        const events = [said('inv1', 'x', { big, 'user:where': 'home' }), said('inv2', 'y', { after: 1 })];
        await store.appendEvents({ session, events });
        const other = await store.createSession(fresh());
        await store.appendEvent({ session: other, event: said('inv3', 'z', { 'user:where': 'work' }) });
        await store.erase({ ...key, invocationId: 'inv1' });
        const stored = (await store.getSession(key)) as Session;
        expect(stored.events[0]?.actions?.stateDelta).toEqual({ big });
        expect(stored.state).toEqual({ big, after: 1, 'user:where': 'work' });
      }));

    it('takes the words out of search and memory', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'zeppelin harbour'), said('inv2', 'zeppelin lighthouse')];
        await store.appendEvents({ session, events });
        const user = { appName: key.appName, userId: key.userId };
        // Indexed and remembered before the erase.
        expect((await store.searchEvents({ ...user, query: 'zeppelin' })).hits).toHaveLength(2);
        await store.memory.addSessionToMemory(session);
        expect((await store.memory.searchMemory({ ...user, query: 'zeppelin' })).memories).toHaveLength(2);
        await store.erase({ ...key, eventIds: [(events[0] as Event).id] });
        const hits = (await store.searchEvents({ ...user, query: 'zeppelin' })).hits;
        expect(hits.map((h) => h.eventId)).toEqual([events[1]?.id]);
        expect((await store.searchEvents({ ...user, query: 'harbour' })).hits).toEqual([]);
        const memories = (await store.memory.searchMemory({ ...user, query: 'zeppelin' })).memories;
        expect(memories.map((m) => [m.eventId, m.content])).toEqual([
          [events[1]?.id, { role: 'user', parts: [{ text: 'zeppelin lighthouse' }] }],
        ]);
        expect((await store.memory.searchMemory({ ...user, query: 'harbour' })).memories).toEqual([]);
        // Memory added again from the copy read before the erase goes with the next erase.
        await store.memory.addSessionToMemory(session);
        expect((await store.memory.searchMemory({ ...user, query: 'harbour' })).memories).toHaveLength(1);
        expect((await store.erase({ ...key, eventIds: [(events[0] as Event).id] })).erasedNow).toEqual([]);
        expect((await store.memory.searchMemory({ ...user, query: 'harbour' })).memories).toEqual([]);
      }));

    it('is idempotent: erasing again changes nothing and reports nothing erased now', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'a'), said('inv1', 'b')];
        await store.appendEvents({ session, events });
        const ids = events.map((e) => e.id);
        await store.erase({ ...key, eventIds: [ids[0] as string] });
        const once = (await store.getSession(key)) as Session;
        const again = await store.erase({ ...key, eventIds: [ids[0] as string] });
        expect(again).toEqual({ eventIds: [ids[0]], erasedNow: [] });
        expect(await store.getSession(key)).toEqual(once);
        // An invocation half erased: only the rest is erased now.
        expect(await store.erase({ ...key, invocationId: 'inv1' })).toEqual({ eventIds: ids, erasedNow: [ids[1]] });
      }));

    it('rejects an unknown session, event or invocation and bad input with typed errors, erasing nothing', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'kept words')];
        await store.appendEvents({ session, events });
        const id = (events[0] as Event).id;
        await expect(store.erase({ ...key, sessionId: 'nope', eventIds: [id] })).rejects.toBeInstanceOf(
          SessionNotFoundError,
        );
        const unknown = store.erase({ ...key, eventIds: [id, 'missing'] });
        await expect(unknown).rejects.toBeInstanceOf(EventNotFoundError);
        await expect(unknown).rejects.toMatchObject({ code: 'EVENT_NOT_FOUND', name: 'EventNotFoundError' });
        await expect(store.erase({ ...key, eventIds: [id], invocationId: 'inv9' })).rejects.toBeInstanceOf(
          InvocationNotFoundError,
        );
        await expect(store.erase({ ...key })).rejects.toBeInstanceOf(InvalidInputError);
        await expect(store.erase({ ...key, eventIds: [] })).rejects.toBeInstanceOf(InvalidInputError);
        await expect(store.erase({ ...key, eventIds: [7] as unknown as string[] })).rejects.toBeInstanceOf(
          InvalidInputError,
        );
        expect((await store.getSession(key))?.events).toEqual(events);
      }));

    it('takes __proto__ as a plain event id and invocation id', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const event = { ...said('__proto__', 'proto words'), id: '__proto__' };
        await store.appendEvent({ session, event });
        expect(await store.erase({ ...key, invocationId: '__proto__' })).toEqual({
          eventIds: ['__proto__'],
          erasedNow: ['__proto__'],
        });
        expect(await store.erase({ ...key, eventIds: ['__proto__'] })).toEqual({
          eventIds: ['__proto__'],
          erasedNow: [],
        });
        const [stored] = (await store.getSession(key))?.events ?? [];
        expect(stored?.id).toBe('__proto__');
        expect(isErased(stored as Event)).toBe(true);
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      }));

    it('races an append on the same session: both succeed, the append stays whole and last, the session object stays current', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'first'), said('inv2', 'second')];
        await store.appendEvents({ session, events });
        const late = said('inv3', 'third', { step: 3 });
        const [appended, result] = await Promise.all([
          store.appendEvent({ session, event: late }),
          store.erase({ ...key, invocationId: 'inv1' }),
        ]);
        expect(appended).toEqual(late);
        expect(result.erasedNow).toEqual([events[0]?.id]);
        // Not stale: an agent running on the session goes on.
        const next = said('inv4', 'fourth');
        await store.appendEvent({ session, event: next });
        const stored = (await store.getSession(key)) as Session;
        expect(stored.events.map((e) => e.id)).toEqual([...events, late, next].map((e) => e.id));
        expect(stored.events.slice(1)).toEqual([events[1], late, next]);
        expect(stored.state).toEqual({ step: 3 });
      }));

    it('keeps erased events erased through an export and an import', () =>
      withStore(async (store) => {
        const key = { ...fresh(), appName: `erase-transfer-${n++}` };
        const session = await store.createSession(key);
        const events = [said('inv1', 'exported secret'), said('inv2', 'exported plain')];
        await store.appendEvents({ session, events });
        await store.erase({ ...key, invocationId: 'inv1' });
        const before = (await store.getSession(key)) as Session;
        const blob = await exportSessionsToBlob(store, { appName: key.appName });
        expect(await blob.text()).not.toContain('exported secret');
        await store.deleteSession(key);
        await importSessions(store, blob);
        const after = (await store.getSession(key)) as Session;
        expect(after.events).toEqual(before.events);
        expect(after.events.map(isErased)).toEqual([true, false]);
      }));

    it('tells subscribers and live queries, which show the erased event', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const events = [said('inv1', 'live words'), said('inv2', 'other words')];
        await store.appendEvents({ session, events });
        const heard: StoreChange[] = [];
        const stop = store.subscribe(key, (change) => heard.push(change));
        const query = watchSession(store, key);
        const seen: (Session | undefined)[] = [];
        const unsubscribe = query.subscribe((snapshot) => {
          if (snapshot.status === 'ready') seen.push(snapshot.value);
        });
        await expect.poll(() => seen.at(-1)?.events.length).toBe(2);
        await store.erase({ ...key, eventIds: [(events[0] as Event).id] });
        await expect.poll(() => heard.map((c) => [c.type, c.eventIds])).toContainEqual(['erased', [events[0]?.id]]);
        await expect.poll(() => seen.at(-1)?.events.map(isErased)).toEqual([true, false]);
        unsubscribe();
        stop();
      }));
  });
}
