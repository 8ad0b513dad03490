/**
 * Compaction-aware reads: `getSession` of a 20,000-event session whose latest compaction is near
 * its end, read whole and with `fromLatestCompaction`, in one Chromium page on an on-disk profile,
 * the store in the page's thread. Prints the median time of each and the event records each read.
 *
 *   npx tsx bench/compaction/run.ts [--reps 9] [--events 20000] [--after 40] [--retained 10]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { createServer } from 'vite';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { median } from '../stats.js';
import type { CompactionRead } from './page.js';

const option = (flag: string, fallback: number): number => {
  const at = process.argv.indexOf(flag);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a positive integer`);
  return value;
};
const reps = option('--reps', 9);
const events = option('--events', 20_000);
const after = option('--after', 40);
const retained = option('--retained', 10);

const root = path.resolve(import.meta.dirname, '../..');
const server = await createServer({
  root,
  configFile: false,
  logLevel: 'warn',
  optimizeDeps: { entries: ['bench/compaction/index.html'] },
  server: { host: '127.0.0.1', port: 0 },
});
await server.listen();
const url = server.resolvedUrls?.local[0];
const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-compaction-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  args: chromiumArgs,
  headless: true,
});
try {
  const page = await context.newPage();
  await page.goto(`${url}bench/compaction/index.html`);
  await page.waitForFunction(() => 'compactionBench' in window);
  await page.evaluate(([e, a, r]) => window.compactionBench.build(e, a, r), [events, after, retained] as const);
  await page.evaluate(() => window.compactionBench.read()); // warm-up
  const runs: CompactionRead[] = [];
  for (let rep = 0; rep < reps; rep++) runs.push(await page.evaluate(() => window.compactionBench.read()));
  const last = runs.at(-1) as CompactionRead;
  const full = median(runs.map((r) => r.fullMs));
  const latest = median(runs.map((r) => r.latestMs));
  console.log(
    `${events + 1} events, compaction before the last ${after} (${retained} earlier events past its span); ` +
      `${reps} repetitions after a warm-up, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  console.log(
    `whole session          ${full.toFixed(1).padStart(7)} ms  ${last.fullRecords} event records read, ${last.fullEvents} returned`,
  );
  console.log(
    `fromLatestCompaction   ${latest.toFixed(1).padStart(7)} ms  ${last.latestRecords} event records read, ${last.latestEvents} returned`,
  );
  console.log(
    `${(last.fullRecords / last.latestRecords).toFixed(0)}x fewer records read, ${(full / latest).toFixed(0)}x faster`,
  );
} finally {
  await context.close();
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
