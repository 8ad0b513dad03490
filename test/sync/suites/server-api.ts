/** The sync server's HTTP contract, as any client sees it: auth, scoping, validation, idempotent pushes. */
import { describe, expect, it } from 'vitest';
import { type ServerProcess, TOKENS } from '../server-process.js';

/** The HTTP contract as any client sees it (the server runs with a 64 KiB body cap). */
export function serverApiSuite(server: () => ServerProcess): void {
  const path = (app: string, user: string, rest: string) => `${server().url}/v1/apps/${app}/users/${user}${rest}`;
  async function call(token: string | undefined, method: string, url: string, body?: unknown) {
    const response = await fetch(url, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  const feed = async (token: string, app: string, user: string) =>
    (await call(token, 'GET', path(app, user, '/changes?after=0'))).body as { changes: { type: string }[] };
  const event = (id: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: 1, author: 'user', ...extra });

  describe('auth and scoping', () => {
    it('refuses a missing or wrong token with 401, and stores nothing', async () => {
      expect((await call(undefined, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'x1' })).status).toBe(401);
      const wrong = await call('nope', 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'x1' });
      expect(wrong).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
      expect((await feed(TOKENS.alice, 'chat', 'alice')).changes.some((c) => JSON.stringify(c).includes('x1'))).toBe(
        false,
      );
    });

    it("refuses another user's ids and another app's with 403", async () => {
      await call(TOKENS.bob, 'POST', path('chat', 'bob', '/sessions'), { sessionId: 'bobs' });
      expect((await call(TOKENS.alice, 'GET', path('chat', 'bob', '/changes'))).status).toBe(403);
      expect(
        (
          await call(TOKENS.alice, 'POST', path('chat', 'bob', '/sessions/bobs/events'), {
            after: 0,
            events: [event('e')],
          })
        ).status,
      ).toBe(403);
      expect((await call(TOKENS.alice, 'DELETE', path('chat', 'bob', '/sessions/bobs'))).status).toBe(403);
      // A token for alice of app `notes` only: alice's `chat` sessions are out of its reach.
      expect((await call(TOKENS.aliceOtherApp, 'GET', path('chat', 'alice', '/changes'))).status).toBe(403);
      expect((await feed(TOKENS.bob, 'chat', 'bob')).changes).toHaveLength(1);
    });

    it('an id of one user is a different session for another: same ids never meet', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'shared-id' });
      await call(TOKENS.bob, 'POST', path('chat', 'bob', '/sessions'), { sessionId: 'shared-id' });
      await call(TOKENS.bob, 'POST', path('chat', 'bob', '/sessions/shared-id/events'), {
        after: 0,
        events: [event('b1')],
      });
      const alices = await feed(TOKENS.alice, 'chat', 'alice');
      expect(JSON.stringify(alices)).not.toContain('b1');
    });
  });

  describe('bodies', () => {
    it('malformed and invalid bodies get 400 naming the problem; nothing is stored', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'v' });
      const notJson = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/v/events'), '{"after":');
      expect(notJson).toMatchObject({ status: 400, body: { error: 'invalid' } });
      const noId = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/v/events'), {
        after: 0,
        events: [{ timestamp: 1 }],
      });
      expect(noId.status).toBe(400);
      expect(noId.body.message).toMatch(/events\[0\]\.id/);
      const badAfter = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/v/events'), {
        after: -1,
        events: [event('ok')],
      });
      expect(badAfter.status).toBe(400);
      const noSession = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { state: {} });
      expect(noSession.status).toBe(400);
      const { changes } = await feed(TOKENS.alice, 'chat', 'alice');
      expect(changes.filter((c) => c.type === 'event' && JSON.stringify(c).includes('"v"'))).toHaveLength(0);
    });

    it('an oversized body gets 413 before it is read; nothing is stored', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'big' });
      const big = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/big/events'), {
        after: 0,
        events: [event('huge', { content: { parts: [{ text: 'x'.repeat(70_000) }] } })],
      });
      expect(big).toMatchObject({ status: 413, body: { error: 'too-large' } });
      expect(JSON.stringify(await feed(TOKENS.alice, 'chat', 'alice'))).not.toContain('huge');
    });

    it('keeps `__proto__` as a plain key of an event', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'proto' });
      const body =
        '{"after":0,"events":[{"id":"pp","timestamp":1,"actions":{"stateDelta":{"__proto__":{"polluted":true}}}}]}';
      expect((await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/proto/events'), body)).status).toBe(
        200,
      );
      const text = JSON.stringify(await feed(TOKENS.alice, 'chat', 'alice'));
      expect(text).toContain('"__proto__":{"polluted":true}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('app state', () => {
    const appState = async (token: string, user: string) =>
      ((await call(token, 'GET', path('chat', user, '/changes?after=0'))).body as { appState: Record<string, unknown> })
        .appState;

    it("a user's token may not write app: state: 403, nothing stored, no other user sees it", async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'app-w' });
      const pushed = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/app-w/events'), {
        after: 0,
        events: [event('aw1'), event('aw2', { actions: { stateDelta: { 'app:banner': 'from alice', n: 1 } } })],
      });
      expect(pushed).toMatchObject({ status: 403, body: { error: 'app-state-forbidden' } });
      expect(pushed.body.message).toMatch(/event aw2 writes app:banner/);
      const created = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), {
        sessionId: 'app-c',
        state: { topic: 't', 'app:banner': 'from alice' },
      });
      expect(created).toMatchObject({ status: 403, body: { error: 'app-state-forbidden' } });
      const alices = JSON.stringify(await feed(TOKENS.alice, 'chat', 'alice'));
      expect(alices).not.toContain('aw1');
      expect(alices).not.toContain('app-c');
      expect(await appState(TOKENS.bob, 'bob')).not.toHaveProperty('banner');
    });

    it('a token allowed to write app state does, and every user of the app pulls it', async () => {
      await call(TOKENS.carol, 'POST', path('chat', 'carol', '/sessions'), { sessionId: 'app-ok' });
      const pushed = await call(TOKENS.carol, 'POST', path('chat', 'carol', '/sessions/app-ok/events'), {
        after: 0,
        events: [event('cw1', { actions: { stateDelta: { 'app:motd': 'from carol' } } })],
      });
      expect(pushed.status).toBe(200);
      expect(await appState(TOKENS.bob, 'bob')).toMatchObject({ motd: 'from carol' });
      expect(await appState(TOKENS.alice, 'alice')).toMatchObject({ motd: 'from carol' });
    });
  });

  describe('pushes', () => {
    it('a replayed push answers with the same positions and stores nothing twice', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'replay' });
      const body = { after: 0, events: [event('r1'), event('r2')] };
      const first = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/replay/events'), body);
      const again = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/replay/events'), body);
      expect(first.status).toBe(200);
      expect(again).toEqual(first);
      const { changes } = await feed(TOKENS.alice, 'chat', 'alice');
      const ids = changes
        .filter((c) => c.type === 'event')
        .map((c) => (c as unknown as { event: { id: string } }).event.id);
      expect(ids.filter((id) => id === 'r1' || id === 'r2')).toEqual(['r1', 'r2']);
    });

    it('a push after an old head gets 409 with the newer events, and stores nothing', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'stale' });
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/stale/events'), {
        after: 0,
        events: [event('s1')],
      });
      const stale = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/stale/events'), {
        after: 0,
        events: [event('s2')],
      });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ head: 1, events: [{ pos: 1, event: { id: 's1' } }] });
      expect(JSON.stringify(await feed(TOKENS.alice, 'chat', 'alice'))).not.toContain('"s2"');
    });

    it('an erasure is checked like a push: 400 for a bad body, 403 for another user, 404 for no session', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'er' });
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/er/events'), {
        after: 0,
        events: [event('er1', { content: { parts: [{ text: 'to be erased' }] } })],
      });
      const erase = (token: string, user: string, session: string, body: unknown) =>
        call(token, 'POST', path('chat', user, `/sessions/${session}/erase`), body);
      expect((await erase(TOKENS.alice, 'alice', 'er', { erasures: [] })).status).toBe(400);
      const noAt = await erase(TOKENS.alice, 'alice', 'er', { erasures: [{ id: 'er1' }] });
      expect(noAt.status).toBe(400);
      expect(noAt.body.message).toMatch(/erasures\[0\]\.at/);
      const badDelta = await erase(TOKENS.alice, 'alice', 'er', { erasures: [{ id: 'er1', at: 1, stateDelta: [1] }] });
      expect(badDelta.status).toBe(400);
      expect(badDelta.body.message).toMatch(/erasures\[0\]\.stateDelta/);
      expect((await erase(TOKENS.bob, 'alice', 'er', { erasures: [{ id: 'er1', at: 1 }] })).status).toBe(403);
      expect((await erase(TOKENS.alice, 'alice', 'none', { erasures: [{ id: 'er1', at: 1 }] })).status).toBe(404);
      expect(JSON.stringify(await feed(TOKENS.alice, 'chat', 'alice'))).toContain('to be erased');
      // Ids the session lacks are passed over; the event it has is erased once.
      const both = [
        { id: 'er1', at: 7 },
        { id: 'not-there', at: 7 },
      ];
      expect(await erase(TOKENS.alice, 'alice', 'er', { erasures: both })).toEqual({
        status: 200,
        body: { erased: 1 },
      });
      expect(await erase(TOKENS.alice, 'alice', 'er', { erasures: both })).toEqual({
        status: 200,
        body: { erased: 0 },
      });
      const { changes } = await feed(TOKENS.alice, 'chat', 'alice');
      expect(JSON.stringify(changes)).not.toContain('to be erased');
      // Asked without `erasures=1`, as a device of an earlier release pulls: a stand-in at position 0.
      expect(changes.filter((c) => c.type === 'erased')).toHaveLength(0);
      const erasedChanges = (await call(TOKENS.alice, 'GET', path('chat', 'alice', '/changes?after=0&erasures=1')))
        .body as { changes: { type: string }[] };
      expect(erasedChanges.changes.filter((c) => c.type === 'erased')).toEqual([
        // Sent without a kept delta (an earlier release's erasure): it keeps none.
        expect.objectContaining({ sessionId: 'er', erasures: [{ id: 'er1', at: 7, stateDelta: {} }] }),
      ]);
    });

    it('stamps each event strictly after the session head, whatever the device clock says', async () => {
      await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions'), { sessionId: 'clock' });
      const answer = await call(TOKENS.alice, 'POST', path('chat', 'alice', '/sessions/clock/events'), {
        after: 0,
        events: [event('c1', { timestamp: 5 }), event('c2', { timestamp: 5 }), event('c3', { timestamp: 1 })],
      });
      const stamps = (answer.body.placed as { timestamp: number }[]).map((p) => p.timestamp);
      expect(stamps[0]).toBeGreaterThan(1_000_000_000_000);
      expect(stamps[1]).toBeGreaterThan(stamps[0] as number);
      expect(stamps[2]).toBeGreaterThan(stamps[1] as number);
    });
  });
}
