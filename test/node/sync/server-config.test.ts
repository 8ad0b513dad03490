/** `npm run server`'s environment: development mode without SYNC_TOKENS, and the CORS origins it answers. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startServer } from '../../sync/server-process.js';

vi.setConfig({ testTimeout: 60_000 });

let dev: ServerProcess;
let strict: ServerProcess;
beforeAll(async () => {
  [dev, strict] = await Promise.all([
    startServer({ SYNC_TOKENS: '' }),
    startServer({ SYNC_CORS_ORIGINS: 'https://app.example' }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([dev?.stop(), strict?.stop()]);
});

describe('npm run server', () => {
  it('without SYNC_TOKENS, says so and lets "dev-token" act for demo-user of any app (app state too), and no one else', async () => {
    expect(dev.output()).toMatch(/SYNC_TOKENS is not set: development mode/);
    const as = (token: string, path: string) =>
      fetch(`${dev.url}/v1/apps/${path}/changes`, { headers: { authorization: `Bearer ${token}` } });
    expect((await as('dev-token', 'demo-app/users/demo-user')).status).toBe(200);
    expect((await as('dev-token', 'other-app/users/demo-user')).status).toBe(200);
    expect((await as('dev-token', 'demo-app/users/someone-else')).status).toBe(403);
    expect((await as('guess', 'demo-app/users/demo-user')).status).toBe(401);
    // The demo's agents write app state: the development token may.
    const base = `${dev.url}/v1/apps/demo-app/users/demo-user`;
    const post = (path: string, body: unknown) =>
      fetch(base + path, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token' },
        body: JSON.stringify(body),
      });
    expect((await post('/sessions', { sessionId: 'dev', state: { 'app:seed': 1 } })).status).toBe(201);
    const events = [{ id: 'dev-1', timestamp: 1, actions: { stateDelta: { 'app:count': 1 } } }];
    expect((await post('/sessions/dev/events', { after: 0, events })).status).toBe(200);
  });

  it('answers CORS for any origin by default and only for SYNC_CORS_ORIGINS when set', async () => {
    const preflight = (server: ServerProcess, origin: string) =>
      fetch(`${server.url}/v1/apps/a/users/u/changes`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    expect((await preflight(dev, 'https://anywhere.example')).headers.get('access-control-allow-origin')).toBe('*');
    expect((await preflight(strict, 'https://app.example')).headers.get('access-control-allow-origin')).toBe(
      'https://app.example',
    );
    expect((await preflight(strict, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('npm run server with settings it cannot read', () => {
  it('SYNC_MAX_BODY_BYTES=abc stops it with a message and exit code 1 (never a server without a cap)', async () => {
    await expect(startServer({ SYNC_MAX_BODY_BYTES: 'abc' })).rejects.toThrow(
      /exited \(1\) before listening:\s*sync server: SYNC_MAX_BODY_BYTES="abc": must be a whole number/,
    );
  });

  it('names every bad setting at once, and not the secret of a malformed token', async () => {
    const failure = await startServer({
      SYNC_MAX_STREAMS_PER_USER: '0',
      SYNC_CORS_ORIGINS: 'https://app.example/path',
      DATABASE_URL: 'mysql://db',
      SYNC_TOKENS: 'sekrit-alice',
    }).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/exited \(1\)/);
    // (PORT is the harness's own: it picks a free one.)
    for (const name of ['SYNC_MAX_STREAMS_PER_USER', 'SYNC_CORS_ORIGINS', 'DATABASE_URL', 'SYNC_TOKENS']) {
      expect(failure).toContain(`sync server: ${name}`);
    }
    expect(failure).not.toContain('sekrit');
  });
});
