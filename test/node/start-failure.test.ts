/**
 * The message for a store worker that never started. Its probe of the script's
 * URL must never hold the failing calls for long, whatever the network does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeStartFailure } from '../../src/client/start-failure.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

const url = 'https://app.example/assets/store.js';

describe('describeStartFailure', () => {
  it('names a 404 for the worker script, with the URL and the fix', async () => {
    vi.stubGlobal('fetch', async () => new Response('missing', { status: 404 }));
    const message = await describeStartFailure(new Event('error'), url);
    expect(message).toContain(url);
    expect(message).toMatch(/answered 404/);
    expect(message).toMatch(/openSessionStore\(\{ worker: url \}\)/);
  });

  it('names an HTML fallback page served in place of the script', async () => {
    vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }));
    expect(await describeStartFailure(new Event('error'), url)).toMatch(/served as "text\/html"/);
  });

  it('gives up on a probe that never answers, within seconds, with the generic reason', async () => {
    vi.stubGlobal(
      'fetch',
      (_: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    );
    const started = Date.now();
    const message = await describeStartFailure(new Event('error'), url);
    expect(Date.now() - started).toBeLessThan(4500);
    expect(message).toMatch(/the browser gave no reason/);
  });
});
