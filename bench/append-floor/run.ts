/**
 * How far awaited appends can go with the work an append does: 100 sessions each awaiting 100
 * appends, written all in one transaction (the limit the main bench divides by, and the same in the
 * store's shape), by hand in one transaction per round of 100 with an append's work and with parts
 * of it left out or reshaped (shapes.ts names each way), and by this store in the page's thread. One
 * Chromium page, on-disk profile, the ways interleaved within each repetition. `--sessions 1` makes
 * it the sequential case: one session awaiting each append.
 *
 *   npx tsx bench/append-floor/run.ts [--reps 5] [--sessions 100] [--events 100]
 *
 * Prints each way's median ms and its median per-repetition ratio to the limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { createServer } from 'vite';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { median } from '../stats.js';
import { type FloorTimes, STATE_CASES, type StateTimes, WAYS } from './shapes.js';

const option = (flag: string, fallback: number): number => {
  const at = process.argv.indexOf(flag);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a positive integer`);
  return value;
};
const reps = option('--reps', 5);
const sessions = option('--sessions', 100);
const events = option('--events', 100);
const appends = option('--appends', 200);
const stateOnly = process.argv.includes('--state-only');

const root = path.resolve(import.meta.dirname, '../..');
const server = await createServer({
  root,
  configFile: false,
  logLevel: 'warn',
  // Only this page's imports: the repo's other pages pull in ADK, which the optimizer need not see.
  optimizeDeps: { entries: ['bench/append-floor/index.html'] },
  server: { host: '127.0.0.1', port: 0 },
});
await server.listen();
const url = server.resolvedUrls?.local[0];
const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-append-floor-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  args: chromiumArgs,
  headless: true,
});
try {
  const page = await context.newPage();
  await page.goto(`${url}bench/append-floor/index.html`);
  await page.waitForFunction(() => 'appendFloor' in window);
  const run = () => page.evaluate(([s, e]) => window.appendFloor.run(s, e), [sessions, events] as const);
  if (!stateOnly) {
    await run(); // warm-up
    const times: FloorTimes[] = [];
    for (let rep = 0; rep < reps; rep++) times.push(await run());
    console.log(
      `${sessions} sessions x ${events} awaited appends, ${reps} repetitions after a warm-up, load ${os.loadavg()[0]?.toFixed(2)}`,
    );
    for (const way of WAYS) {
      const ms = median(times.map((t) => t[way]));
      const ratio = median(times.map((t) => t[way] / t.limit));
      console.log(`${way.padEnd(12)} ${ms.toFixed(0).padStart(7)} ms   ${ratio.toFixed(2)}x the limit`);
    }
    console.log(`store over the hand-coded floor: ${median(times.map((t) => t.store / t.floor)).toFixed(2)}x`);
    console.log(`store over the events alone: ${median(times.map((t) => t.store / t.eventsOnly)).toFixed(2)}x`);
    console.log(
      `a transaction per event over the store: ${median(times.map((t) => t.txPerEvent / t.store)).toFixed(2)}x`,
    );
  }
  const states: StateTimes[] = [];
  await page.evaluate((n) => window.appendFloor.stateAppends(n), Math.min(appends, 20)); // warm-up
  for (let rep = 0; rep < reps; rep++)
    states.push(await page.evaluate((n) => window.appendFloor.stateAppends(n), appends));
  console.log(`append p50 by state kept (${appends} awaited appends of one key each, in-thread, ${reps} repetitions)`);
  for (const { name } of STATE_CASES) {
    const ratio = median(states.map((t) => t[name] / t['session0.2KB']));
    console.log(
      `${name.padEnd(14)} ${median(states.map((t) => t[name]))
        .toFixed(3)
        .padStart(8)} ms   ${ratio.toFixed(2)}x 0.2 KB`,
    );
  }
  console.log(
    `${'raw put'.padEnd(14)} ${median(states.map((t) => t.rawPut))
      .toFixed(3)
      .padStart(8)} ms   sequential append (0.2 KB) over a raw single put: ${median(
      states.map((t) => t['session0.2KB'] / t.rawPut),
    ).toFixed(2)}x`,
  );
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
