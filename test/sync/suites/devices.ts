import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Event, isErased, withoutRewound } from '../../../src/index.js';
import { type Device, device, say, textsOf, turn } from '../devices.js';
import { type ServerProcess, TOKENS } from '../server-process.js';

/** A session's own state: without the `app:` and `user:` keys other tests on the server write. */
const own = (state: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(state ?? {}).filter(([k]) => !k.startsWith('app:') && !k.startsWith('user:')));

/** Two and three devices editing offline, then syncing: order, state, deletions, conflict policies. */
export function devicesSuite(server: () => ServerProcess): void {
  const open: Device[] = [];
  const alice = (options: Parameters<typeof device>[2] = {}): Device => {
    const d = device(server().url, TOKENS.alice, options);
    open.push(d);
    return d;
  };

  afterAll(async () => {
    for (const d of open) await d.close();
  });

  describe('two devices', () => {
    it('a session written offline on one device arrives whole on the other', async () => {
      const a = alice();
      const b = alice();
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 's1', state: { topic: 'x' } });
      await say(a.store, 's1', 'hello', 'how are you');
      expect((await a.sync.syncNow()).lastError).toBeNull();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 's1')).toEqual(['hello', 'how are you']);
      const got = await b.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's1' });
      expect(got?.state).toMatchObject({ topic: 'x', last: 'how are you' });
      expect(a.sync.status().pending).toBe(0);
    });

    it('compaction events of both ADK editions and ADK-internal metadata arrive as written', async () => {
      const a = alice();
      const b = alice();
      const key = { appName: 'chat', userId: 'alice', sessionId: 'compacted' };
      const session = await a.store.createSession(key);
      const t = Date.now();
      const events: Event[] = [
        { ...turn('one', 'i1'), timestamp: t },
        {
          id: 'js-compaction',
          invocationId: '',
          author: 'system',
          timestamp: t + 1,
          isCompacted: true,
          startTime: t,
          endTime: t,
          compactedContent: 'summary',
          isScratchpad: true,
          customMetadata: { __adk_internal_restored_event: true },
        },
        {
          id: 'py-compaction',
          invocationId: 'i2',
          author: 'user',
          timestamp: t + 2,
          actions: {
            compaction: { startTimestamp: t / 1000, endTimestamp: (t + 1) / 1000, compactedContent: { role: 'model' } },
          },
        },
      ];
      await a.store.appendEvents({ session, events });
      expect((await a.sync.syncNow()).lastError).toBeNull();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      const got = await b.store.getSession(key);
      // The server may stamp times later (each strictly after the one before); every other field arrives as written.
      const timeless = (list: Event[] | undefined) => list?.map(({ timestamp: _t, ...rest }) => rest);
      expect(timeless(got?.events)).toEqual(timeless(events));
    });

    it('a rewind on one device reaches the server and the others, and one made there comes back', async () => {
      const a = alice();
      const b = alice();
      const key = { appName: 'chat', userId: 'alice', sessionId: 'rewound' };
      const session = await a.store.createSession({ ...key, state: { topic: 'x' } });
      await a.store.appendEvents({
        session,
        events: [turn('one', 'rw-1', { step: 1 }), turn('two', 'rw-2', { step: 2, extra: true })],
      });
      expect((await a.sync.syncNow()).lastError).toBeNull();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      const rewound = await a.store.rewind({ ...key, beforeInvocationId: 'rw-2' });
      expect((await a.sync.syncNow()).lastError).toBeNull();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      // A device that never saw the session reads it from the server alone.
      const c = alice();
      expect((await c.sync.syncNow()).lastError).toBeNull();
      for (const d of [b, c]) {
        const got = await d.store.getSession(key);
        const { timestamp: _t, ...arrived } = got?.events.at(-1) as Event;
        const { timestamp: _u, ...sent } = rewound;
        expect(arrived).toEqual(sent);
        expect(own(got?.state)).toEqual({ topic: 'x', step: 1, extra: null });
        expect(withoutRewound(got?.events ?? []).map((e) => e.content?.parts?.[0]?.text)).toEqual(['one']);
      }
      // Rewound where it arrived by sync: the creation's state is inferred there (no event set `topic`).
      await b.store.rewind({ ...key, beforeInvocationId: 'rw-1' });
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect((await a.sync.syncNow()).lastError).toBeNull();
      const back = await a.store.getSession(key);
      expect(own(back?.state)).toEqual({ topic: 'x', step: null, extra: null });
      expect(withoutRewound(back?.events ?? [])).toEqual([]);
    });

    it('an event erased before its push reaches the server and the other devices erased, mark and all', async () => {
      const a = alice();
      const key = { appName: 'chat', userId: 'alice', sessionId: 'erased-before-push' };
      const session = await a.store.createSession(key);
      await a.store.appendEvents({ session, events: [turn('a secret', 'er-1'), turn('kept', 'er-2')] });
      await a.store.erase({ ...key, invocationId: 'er-1' });
      const [erased] = (await a.store.getSession(key))?.events ?? [];
      expect((await a.sync.syncNow()).lastError).toBeNull();
      // Devices that never saw the session read it from the server alone.
      for (const d of [alice(), alice()]) {
        expect((await d.sync.syncNow()).lastError).toBeNull();
        const got = await d.store.getSession(key);
        const { timestamp: _t, ...arrived } = got?.events[0] as Event;
        const { timestamp: _u, ...sent } = erased as Event;
        expect(arrived).toEqual(sent);
        expect(got?.events.map(isErased)).toEqual([true, false]);
        expect(JSON.stringify(got?.events)).not.toContain('a secret');
      }
    });

    it('a rewind made offline, rebased behind another device’s append: that append reads as undone, its state stays', async () => {
      const a = alice();
      const b = alice();
      const key = { appName: 'chat', userId: 'alice', sessionId: 'rewound-offline' };
      const session = await a.store.createSession(key);
      await a.store.appendEvents({
        session,
        events: [turn('one', 'ro-1', { step: 1 }), turn('two', 'ro-2', { step: 2 })],
      });
      await a.sync.syncNow();
      await b.sync.syncNow();
      await a.store.rewind({ ...key, beforeInvocationId: 'ro-2' });
      await say(b.store, 'rewound-offline', 'from b');
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect((await a.sync.syncNow()).lastError).toBeNull();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      for (const d of [a, b]) {
        const got = await d.store.getSession(key);
        expect(got?.events.map((e) => e.content?.parts?.[0]?.text ?? 'rewind')).toEqual([
          'one',
          'two',
          'from b',
          'rewind',
        ]);
        expect(withoutRewound(got?.events ?? []).map((e) => e.content?.parts?.[0]?.text)).toEqual(['one']);
        expect(own(got?.state)).toEqual({ step: 1, last: 'from b' });
      }
    });

    it('both devices append to one session offline: the later pusher rebases its block behind the first', async () => {
      const a = alice();
      const b = alice();
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
      await a.sync.syncNow();
      await b.sync.syncNow();
      await say(a.store, 's2', 'a1', 'a2');
      await say(b.store, 's2', 'b1', 'b2');
      expect(b.sync.status().pending).toBe(0);
      await a.sync.syncNow();
      const status = await b.sync.syncNow();
      expect(status.lastError).toBeNull();
      expect(status.pending).toBe(0);
      await a.sync.syncNow();
      const order = ['a1', 'a2', 'b1', 'b2'];
      expect(await textsOf(a.store, 's2')).toEqual(order);
      expect(await textsOf(b.store, 's2')).toEqual(order);
      const stateA = await a.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
      const stateB = await b.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
      expect(stateA?.state.last).toBe('b2');
      expect(stateB?.state.last).toBe('b2');
    });

    it("the app's session object stays current across its own syncs (no StaleSessionError)", async () => {
      const a = alice();
      const session = await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'own' });
      await a.sync.syncNow();
      await a.store.appendEvent({ session, event: turn('one', 'i1') });
      await a.sync.syncNow();
      await a.store.appendEvent({ session, event: turn('two', 'i2') });
      await a.sync.syncNow();
      await a.store.appendEvent({ session, event: turn('three', 'i3') });
      expect(await textsOf(a.store, 'own')).toEqual(['one', 'two', 'three']);
    });

    it('live: a poke on the change stream makes the other device pull at once', async () => {
      const a = alice();
      const b = alice({ live: true, intervalMs: 600_000 });
      open.push(b);
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'live' });
      await a.sync.syncNow();
      b.sync.start();
      await vi.waitUntil(
        async () => (await textsOf(b.store, 'live')).length === 0 && b.sync.status().lastSyncAt !== null,
        {
          timeout: 20_000,
        },
      );
      await say(a.store, 'live', 'pushed by A');
      await a.sync.syncNow();
      await vi.waitUntil(async () => (await textsOf(b.store, 'live')).includes('pushed by A'), { timeout: 20_000 });
    });

    it('a deletion on one device removes the session on the other (a tombstone)', async () => {
      const a = alice();
      const b = alice();
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'gone' });
      await say(a.store, 'gone', 'bye');
      await a.sync.syncNow();
      await b.sync.syncNow();
      expect(await textsOf(b.store, 'gone')).toEqual(['bye']);
      await b.store.deleteSession({ appName: 'chat', userId: 'alice', sessionId: 'gone' });
      expect(b.sync.status().pending).toBe(0);
      expect((await b.sync.syncNow()).pending).toBe(0);
      await a.sync.syncNow();
      expect(await a.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'gone' })).toBeUndefined();
      const c = alice();
      await c.sync.syncNow();
      expect(await c.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'gone' })).toBeUndefined();
    });

    it("policy 'fork': the overtaken block moves to a new session and the original follows the server", async () => {
      const a = alice();
      const b = alice({ conflict: 'fork' });
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'f' });
      await a.sync.syncNow();
      await b.sync.syncNow();
      await say(a.store, 'f', 'server side');
      const mine = await say(b.store, 'f', 'mine 1', 'mine 2');
      await a.sync.syncNow();
      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 'f')).toEqual(['server side']);
      const forkId = `f~fork~${mine.events[0]?.id}`;
      expect(await textsOf(b.store, forkId)).toEqual(['mine 1', 'mine 2']);
      await a.sync.syncNow();
      expect(await textsOf(a.store, forkId)).toEqual(['mine 1', 'mine 2']);
      expect(await textsOf(a.store, 'f')).toEqual(['server side']);
    });

    it('a conflict callback sees both sides and may drop the pending events', async () => {
      const seen: string[][] = [];
      const a = alice();
      const b = alice({
        conflict: ({ server, pending }) => {
          seen.push([...server, ...pending].map((e) => e.content?.parts?.[0]?.text ?? '?'));
          return 'drop';
        },
      });
      await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'cb' });
      await a.sync.syncNow();
      await b.sync.syncNow();
      await say(a.store, 'cb', 'kept');
      await say(b.store, 'cb', 'dropped');
      await a.sync.syncNow();
      await b.sync.syncNow();
      expect(seen).toEqual([['kept', 'dropped']]);
      expect(await textsOf(b.store, 'cb')).toEqual(['kept']);
      expect(b.sync.status().pending).toBe(0);
    });
  });

  describe('three devices', () => {
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    it.each(orders)('edit the same and different sessions offline, then sync in order %i %i %i', async (...order) => {
      const tag = order.join('');
      const devices = [alice(), alice(), alice()];
      const shared = `same-${tag}`;
      await devices[0]?.store.createSession({ appName: 'chat', userId: 'alice', sessionId: shared });
      for (const d of devices) await d.sync.syncNow();
      for (const [i, d] of devices.entries()) {
        await say(d.store, shared, `${i}a`, `${i}b`);
        await d.store.createSession({ appName: 'chat', userId: 'alice', sessionId: `own-${tag}-${i}` });
        await say(d.store, `own-${tag}-${i}`, `only ${i}`);
      }
      for (const i of order) await devices[i]?.sync.syncNow();
      for (const i of order) await devices[i]?.sync.syncNow();
      // Blocks land in the order their devices pushed.
      const expected = order.flatMap((i) => [`${i}a`, `${i}b`]);
      for (const d of devices) {
        expect(await textsOf(d.store, shared)).toEqual(expected);
        for (const i of [0, 1, 2]) expect(await textsOf(d.store, `own-${tag}-${i}`)).toEqual([`only ${i}`]);
        const session = await d.store.getSession({ appName: 'chat', userId: 'alice', sessionId: shared });
        expect(session?.state.last).toBe(expected.at(-1));
      }
    });
  });
}
