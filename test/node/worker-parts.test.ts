/**
 * The worker's parts loaded on first use (src/host/lazy.ts): loaded once however
 * many calls wait for them, and loaded again after a failed load (a chunk that
 * did not arrive must not break the capability for the worker's lifetime), and
 * fetched soon after start-up, so that their first use needs no network.
 */
import { expect, it, vi } from 'vitest';
import { lazy } from '../../src/core/lazy.js';

it('loads nothing until asked, then once for every caller', async () => {
  let loads = 0;
  const part = lazy(async () => ({ n: ++loads }));
  expect(part.started()).toBeUndefined();
  expect(loads).toBe(0);
  const [a, b] = await Promise.all([part(), part()]);
  expect(a).toBe(b);
  expect(await part()).toBe(a);
  expect(loads).toBe(1);
  expect(await part.started()).toBe(a);
});

it('tries again after a failed load, and forgets the failure', async () => {
  let loads = 0;
  const part = lazy(async () => {
    loads += 1;
    if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module');
    return 'loaded';
  });
  await expect(part()).rejects.toThrow('Failed to fetch');
  expect(part.started()).toBeUndefined();
  expect(await part()).toBe('loaded');
  expect(loads).toBe(2);
});

it('warms the parts once per realm, after the first answer, one a task apart; a failure is left to first use', async () => {
  vi.useFakeTimers();
  try {
    vi.resetModules();
    const { warmLater, WARM_DELAY_MS } = await import('../../src/host/lazy.js');
    const loaded: string[] = [];
    const part =
      (name: string, fails = false) =>
      async () => {
        loaded.push(name);
        if (fails) throw new TypeError('Failed to fetch dynamically imported module');
      };
    const done = warmLater([part('artifacts'), part('search', true), part('sync')]);
    // A second connection's hello starts nothing more.
    expect(warmLater([part('again')])).toBe(done);
    await vi.advanceTimersByTimeAsync(WARM_DELAY_MS - 1);
    expect(loaded).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    await done;
    expect(loaded).toEqual(['artifacts', 'search', 'sync']);
  } finally {
    vi.useRealTimers();
  }
});
