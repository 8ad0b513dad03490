/**
 * `npm run bench:search [-- --quick]` (full runs write bench/results/search.*; also a part of `npm run bench`):
 * search over one user's 100,000 events in 1,000 sessions through the store's
 * worker, in headless Chromium with a fresh on-disk profile: the rebuild from
 * scratch (the first search), query p50/p95, the same queries by a brute-force
 * scan, the saved index's size, and what keeping the index costs appends (one
 * at a time, and a 100 × 100 concurrent burst) against a user with no index.
 * The queries run three ways: with the defaults (prefix, typo and form matching on),
 * with all three off, and as typed (words cut short, typos).
 * Targets: p50 < 10 ms, p95 < 30 ms (typed too), ≥ 20x faster than the scan.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { median } from '../stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface SearchBenchOptions {
  quick: boolean;
  /** Where `search.json` and `search.txt` go; none when omitted. */
  out?: string;
}

const log = (message: string): void => {
  process.stderr.write(`[bench search ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const percentile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] as number;

interface SearchFigures {
  events: number;
  fillMs: number;
  rebuildMs: number;
  queryP50: number;
  queryP95: number;
  /** The same queries with prefix, typo and word-form matching off. */
  exactP50: number;
  exactP95: number;
  /** The typing queries (words cut short, typos), with the defaults. */
  typedP50: number;
  typedP95: number;
  scanP50: number;
  indexBytes: number;
  shards: number;
  appendIndexedP50: number;
  appendPlainP50: number;
  burstIndexedMs: number;
  burstPlainMs: number;
}

export async function runSearchBench(options: SearchBenchOptions): Promise<boolean> {
  const sizes = options.quick
    ? { sessions: 20, events: 50, reps: 1, appends: 20, burst: [10, 10] as const }
    : { sessions: 1000, events: 100, reps: 20, appends: 200, burst: [100, 100] as const };
  const configFile = path.join(here, 'vite.config.ts');
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  log('building the search bench page');
  await build({ configFile });
  const server = await preview({ configFile, preview: { port: 4182, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview has no local URL');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-bench-search-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: chromiumArgs });
  let result: SearchFigures;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => window.searchBench !== undefined);
    const events = sizes.sessions * sizes.events;
    log(`filling ${sizes.sessions} sessions × ${sizes.events} events`);
    const fillMs = await page.evaluate(
      ([s, e]) => window.searchBench.fill(s as number, e as number),
      [sizes.sessions, sizes.events],
    );
    log('rebuilding the index from the events (first search)');
    const rebuildMs = await page.evaluate(() => window.searchBench.rebuild());
    log(`querying ${sizes.reps} × the query sets (defaults, exact, while typing)`);
    const query = await page.evaluate((r) => window.searchBench.query(r, 'words', false), sizes.reps);
    const exact = await page.evaluate((r) => window.searchBench.query(r, 'words', true), sizes.reps);
    const typed = await page.evaluate((r) => window.searchBench.query(r, 'typed', false), sizes.reps);
    log('scanning');
    const scan = await page.evaluate(() => window.searchBench.scan());
    log('waiting for the index to be saved');
    const size = await page.evaluate(() => window.searchBench.indexSize());
    log(`appends: ${sizes.appends} each, indexed user and plain user alternating`);
    const appends = await page.evaluate((n) => window.searchBench.appends(n), sizes.appends);
    log(`burst: ${sizes.burst[0]} sessions × ${sizes.burst[1]} events, concurrently`);
    const burst = await page.evaluate(([s, e]) => window.searchBench.burst(s, e), sizes.burst);
    result = {
      events,
      fillMs,
      rebuildMs,
      queryP50: percentile(query.times, 0.5),
      queryP95: percentile(query.times, 0.95),
      exactP50: percentile(exact.times, 0.5),
      exactP95: percentile(exact.times, 0.95),
      typedP50: percentile(typed.times, 0.5),
      typedP95: percentile(typed.times, 0.95),
      scanP50: median(scan.times),
      indexBytes: size.bytes,
      shards: size.shards,
      appendIndexedP50: median(appends.indexed),
      appendPlainP50: median(appends.plain),
      burstIndexedMs: burst.indexed,
      burstPlainMs: burst.plain,
    };
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  }
  const r = result;
  const speedup = r.scanP50 / r.queryP50;
  const met = r.queryP50 < 10 && r.queryP95 < 30 && r.typedP95 < 30 && speedup >= 20;
  const f = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
  const lines = [
    `search over ${r.events} events of one user in ${sizes.sessions} sessions, through the worker${options.quick ? ' QUICK: figures mean nothing' : ''}`,
    `  query p50 ${f(r.queryP50)}, p95 ${f(r.queryP95)}; brute-force scan p50 ${f(r.scanP50)} (${speedup.toFixed(0)}x)`,
    `  same queries, prefix, typos and forms off: p50 ${f(r.exactP50)}, p95 ${f(r.exactP95)}; while typing (cut short, typos): p50 ${f(r.typedP50)}, p95 ${f(r.typedP95)}`,
    `  rebuild from scratch (first search) ${f(r.rebuildMs)}; index saved in ${r.shards} shards, ${(r.indexBytes / 2 ** 20).toFixed(1)} MiB (as UTF-16)`,
    `  append p50 ${f(r.appendIndexedP50)} for the indexed user, ${f(r.appendPlainP50)} for a user without an index`,
    `  ${sizes.burst[0]} × ${sizes.burst[1]} concurrent burst: ${f(r.burstIndexedMs)} indexed user, ${f(r.burstPlainMs)} without an index`,
    `target: query p50 < 10 ms, p95 < 30 ms (while typing too), ≥ 20x faster than the scan: ${met ? 'met' : 'NOT met'}`,
  ];
  const text = lines.join('\n');
  process.stdout.write(`${text}\n`);
  if (options.out) {
    await writeFile(path.join(options.out, 'search.txt'), `${text}\n`);
    await writeFile(
      path.join(options.out, 'search.json'),
      `${JSON.stringify({ mode: options.quick ? 'quick' : 'full', sizes, ...r, speedup, met }, null, 2)}\n`,
    );
  }
  return met;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  runSearchBench({ quick, ...(quick ? {} : { out: path.join(here, '..', 'results') }) }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
