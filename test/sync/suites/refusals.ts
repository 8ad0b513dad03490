import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/index.js';
import { type Device, device, say, textsOf, turn } from '../devices.js';
import { type ServerProcess, TOKENS } from '../server-process.js';

/**
 * What the server will not take, and the round going on without it: pushes
 * packed under its body cap, a session it refuses skipped and named in status.
 * The server runs with a 64 KiB body cap.
 */
export function refusalsSuite(server: () => ServerProcess): void {
  const open: Device[] = [];
  const alice = (): Device => {
    const d = device(server().url, TOKENS.alice);
    open.push(d);
    return d;
  };
  const create = (d: Device, sessionId: string) =>
    d.store.createSession({ appName: 'chat', userId: 'alice', sessionId });

  afterAll(async () => {
    for (const d of open) await d.close();
  });

  describe('body cap', () => {
    it('packs pushes by size under the cap; an event over it refuses only its session, and the pull still runs', async () => {
      const a = alice();
      const b = alice();
      await create(b, 'cap-from-b');
      await say(b.store, 'cap-from-b', 'written on b');
      expect((await b.sync.syncNow()).lastError).toBeNull();

      // On the server already, so the big event is what the cap meets (a creation carries the session's state).
      await create(a, 'cap-oversized');
      expect((await a.sync.syncNow()).lastError).toBeNull();
      // Six events of 20 KB: 120 KB in all, so at least two pushes under a 64 KiB cap.
      await create(a, 'cap-packed');
      const texts = ['1', '2', '3', '4', '5', '6'].map((n) => n + 'x'.repeat(20_000));
      await say(a.store, 'cap-packed', ...texts);
      await say(a.store, 'cap-oversized', 'y'.repeat(80_000));
      await create(a, 'cap-light');
      await say(a.store, 'cap-light', 'light');

      const status = await a.sync.syncNow();
      expect(status.lastError).toBeNull();
      expect(status.phase).toBe('idle');
      expect(Object.keys(status.refused)).toEqual(['cap-oversized']);
      expect(status.refused['cap-oversized']).toMatchObject({ status: 413 });
      expect(status.refused['cap-oversized']?.message).toMatch(/larger than the server accepts \(65536 bytes/);
      // Only the oversized event is still pending.
      expect(status.sessions).toEqual({ 'cap-oversized': 1 });
      expect(await textsOf(a.store, 'cap-from-b')).toEqual(['written on b']);

      expect((await b.sync.syncNow()).lastError).toBeNull();
      expect(await textsOf(b.store, 'cap-packed')).toEqual(texts);
      expect(await textsOf(b.store, 'cap-light')).toEqual(['light']);
      expect(await textsOf(b.store, 'cap-oversized')).toEqual([]);
    });

    it('a cap read before it changed: the 413 refuses the session once, the next round reads the cap again and packs under it', async () => {
      let limitsAsked = 0;
      // The first answer claims the cap of before a restart with a smaller SYNC_MAX_BODY_BYTES.
      const stale: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).endsWith('/v1/limits')) return response;
        limitsAsked += 1;
        if (limitsAsked > 1) return response;
        return Response.json({ ...(await response.json()), maxBodyBytes: 4 * 1024 * 1024 });
      };
      const a = device(server().url, TOKENS.alice, { fetch: stale });
      open.push(a);
      await create(a, 'cap-stale');
      expect((await a.sync.syncNow()).lastError).toBeNull();
      const texts = ['1', '2', '3'].map((n) => n + 'w'.repeat(15_000));
      await say(a.store, 'cap-stale', ...texts);
      const first = await a.sync.syncNow();
      expect(first.refused['cap-stale']).toMatchObject({ status: 413 });
      const second = await a.sync.syncNow();
      expect(second.refused).toEqual({});
      expect(second.pending).toBe(0);
      expect(limitsAsked).toBe(2);
    });

    it("a creation over the cap is the server's refusal of that session, named in status; the rest syncs", async () => {
      const a = alice();
      await a.store.createSession({
        appName: 'chat',
        userId: 'alice',
        sessionId: 'cap-big-state',
        state: { notes: 'z'.repeat(70_000) },
      });
      await create(a, 'cap-small-state');
      const status = await a.sync.syncNow();
      expect(status.lastError).toBeNull();
      expect(status.refused).toEqual({
        'cap-big-state': { status: 413, message: expect.stringMatching(/limited to 65536 bytes/) },
      });
      expect(status.sessions).toEqual({ 'cap-big-state': 1 });
    });
  });

  describe('app state', () => {
    it("a device's app: write refuses its session (403, named in status); a creation goes without its app: keys", async () => {
      const a = alice();
      const b = alice();
      await create(a, 'app-writer');
      await a.store.appendEvent({
        session: (await a.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'app-writer' })) as Session,
        event: turn('shared', 'i1', { 'app:theme': 'dark' }),
      });
      await a.store.createSession({
        appName: 'chat',
        userId: 'alice',
        sessionId: 'app-created',
        state: { topic: 'x', 'app:layout': 'wide' },
      });
      await say(a.store, 'app-created', 'fine');
      const status = await a.sync.syncNow();
      expect(status.lastError).toBeNull();
      expect(Object.keys(status.refused)).toEqual(['app-writer']);
      expect(status.refused['app-writer']).toMatchObject({ status: 403, message: expect.stringMatching(/app:theme/) });
      expect(status.sessions).toEqual({ 'app-writer': 1 });

      await b.sync.syncNow();
      expect(await textsOf(b.store, 'app-created')).toEqual(['fine']);
      const there = await b.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'app-created' });
      expect(there?.state).toMatchObject({ topic: 'x' });
      expect(there?.state).not.toHaveProperty('app:layout');
      expect(there?.state).not.toHaveProperty('app:theme');
    });
  });
}
