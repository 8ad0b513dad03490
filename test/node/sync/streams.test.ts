/** The change stream (SSE): no timer left behind per poke, and a cap on the streams one user holds open. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';

vi.setConfig({ testTimeout: 60_000 });

const KEEP_ALIVE_MS = 987_654;
let server: RunningSyncServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sync-streams-'));
  server = await startSyncServer({
    file: join(dir, 'sync.db'),
    port: 0,
    keepAliveMs: KEEP_ALIVE_MS,
    maxStreamsPerUser: 2,
    authenticate: (token) => (token === 'alice' || token === 'bob' ? { userId: token, appName: 'chat' } : undefined),
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = (user: string) => `${server.url}/v1/apps/chat/users/${user}`;
const auth = (user: string) => ({ authorization: `Bearer ${user}` });

/** Opens a change stream; `pokes` counts what arrived so far. */
async function open(user: string) {
  const abort = new AbortController();
  const response = await fetch(`${base(user)}/stream`, { headers: auth(user), signal: abort.signal });
  const stream = { response, pokes: 0, close: () => abort.abort() };
  const body = response.ok ? response.body : null;
  if (body) {
    void (async () => {
      const reader = body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        stream.pokes += value.split('event: poke').length - 1;
      }
    })().catch(() => {});
  }
  return stream;
}

describe('change streams', () => {
  it('a poke clears the keep-alive timer it interrupted: none left pending per wake', async () => {
    const made = new Set<unknown>();
    const cleared = new Set<unknown>();
    const setSpy = vi.spyOn(globalThis, 'setTimeout');
    const realClear = globalThis.clearTimeout;
    const clearing = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((handle) => {
      cleared.add(handle);
      realClear(handle);
    });
    const stream = await open('alice');
    try {
      await vi.waitFor(() => expect(stream.pokes).toBe(1));
      await fetch(`${base('alice')}/sessions`, {
        method: 'POST',
        headers: auth('alice'),
        body: JSON.stringify({ sessionId: 's' }),
      });
      for (let i = 1; i <= 10; i++) {
        const events = [{ id: `e${i}`, timestamp: 1, author: 'user' }];
        await fetch(`${base('alice')}/sessions/s/events`, {
          method: 'POST',
          headers: auth('alice'),
          body: JSON.stringify({ after: i - 1, events }),
        });
        await vi.waitFor(() => expect(stream.pokes).toBe(i + 2));
      }
      for (const [i, call] of setSpy.mock.calls.entries()) {
        if (call[1] === KEEP_ALIVE_MS) made.add(setSpy.mock.results[i]?.value);
      }
      expect(made.size).toBeGreaterThanOrEqual(12);
      const pending = [...made].filter((handle) => !cleared.has(handle));
      // Only the timer of the wait under way.
      expect(pending.length).toBeLessThanOrEqual(1);
    } finally {
      setSpy.mockRestore();
      clearing.mockRestore();
      stream.close();
    }
  });

  it('a user holds at most maxStreamsPerUser streams: one more gets 429; others and a freed place are served', async () => {
    const first = await open('alice');
    const second = await open('alice');
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    const third = await open('alice');
    expect(third.response.status).toBe(429);
    expect(await third.response.json()).toMatchObject({ error: 'too-many-streams' });
    const bobs = await open('bob');
    expect(bobs.response.status).toBe(200);
    first.close();
    await vi.waitFor(async () => {
      const again = await open('alice');
      again.close();
      expect(again.response.status).toBe(200);
    });
    second.close();
    bobs.close();
  });
});
