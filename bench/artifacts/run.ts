/**
 * `npm run bench:artifacts [-- --quick] [-- --reps N]` (full runs write bench/results/artifacts.*; also the last part of
 * `npm run bench`): save and load of 1 KB, 1 MB and 50 MB artifacts through the
 * store's worker against a raw IndexedDB put/get of the same Blob, in headless
 * Chromium with a fresh on-disk profile. Prints the medians and ratios, checks
 * the targets (≤ 1.5x at 1 MB and 50 MB), and the page's JS heap before and
 * after (after a forced GC) to show a 50 MB file leaves nothing behind.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { median } from '../stats.js';
import type { ArtifactTimes } from './page.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const KB = 1024;
const MB = KB * KB;
const TARGET = 1.5;

export interface ArtifactBenchOptions {
  quick: boolean;
  reps?: number;
  /** Where `artifacts.json` and `artifacts.txt` go; none when omitted. */
  out?: string;
}

const log = (message: string): void => {
  process.stderr.write(`[bench artifacts ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const label = (size: number): string => (size >= MB ? `${size / MB} MB` : `${size / KB} KB`);

export async function runArtifactBench(options: ArtifactBenchOptions): Promise<boolean> {
  const sizes = options.quick ? [KB, MB] : [KB, MB, 50 * MB];
  const reps = options.quick ? 1 : (options.reps ?? 7);
  const configFile = path.join(here, 'vite.config.ts');
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  log('building the artifact bench page');
  await build({ configFile });
  const server = await preview({ configFile, preview: { port: 4181, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview has no local URL');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-bench-artifacts-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: chromiumArgs });
  const rows: { size: number; medians: Record<keyof ArtifactTimes, number>; saveRatio: number; loadRatio: number }[] =
    [];
  let heap: { beforeMB: number; afterMB: number } | undefined;
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.artifactBench !== undefined);
    const cdp = await context.newCDPSession(page);
    const heapMB = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      return usedSize / MB;
    };
    const before = await heapMB();
    for (const size of sizes) {
      log(`${label(size)}: ${reps} repetition(s)${options.quick ? '' : ' after a warm-up'}`);
      const times = await page.evaluate(([s, r, w]) => window.artifactBench.run(s, r, w), [
        size,
        reps,
        !options.quick,
      ] as const);
      const medians = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) as Record<
        keyof ArtifactTimes,
        number
      >;
      rows.push({
        size,
        medians,
        saveRatio: medians.storeSave / medians.rawPut,
        loadRatio: medians.storeLoad / medians.rawGet,
      });
    }
    heap = { beforeMB: before, afterMB: await heapMB() };
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  }

  const ms = (v: number): string => v.toFixed(v < 10 ? 2 : 1).padStart(8);
  const lines = [
    `artifact save/load through the worker vs raw IndexedDB put/get of the same Blob (median of ${reps}; ms)${options.quick ? ' QUICK: figures mean nothing' : ''}`,
    '    size   store save   raw put   ratio   store load   raw get   ratio',
    ...rows.map(
      (r) =>
        `${label(r.size).padStart(8)} ${ms(r.medians.storeSave)}    ${ms(r.medians.rawPut)}  ${r.saveRatio.toFixed(2).padStart(5)}x   ${ms(r.medians.storeLoad)}    ${ms(r.medians.rawGet)}  ${r.loadRatio.toFixed(2).padStart(5)}x`,
    ),
    heap ? `page JS heap after GC: ${heap.beforeMB.toFixed(1)} MB before, ${heap.afterMB.toFixed(1)} MB after` : '',
  ];
  const checked = rows.filter((r) => r.size >= MB);
  const met = checked.every((r) => r.saveRatio <= TARGET && r.loadRatio <= TARGET);
  lines.push(`target: save and load ≤ ${TARGET}x the raw Blob put/get at 1 MB and above: ${met ? 'met' : 'NOT met'}`);
  const text = lines.filter(Boolean).join('\n');
  process.stdout.write(`${text}\n`);
  if (options.out) {
    await writeFile(path.join(options.out, 'artifacts.txt'), `${text}\n`);
    await writeFile(
      path.join(options.out, 'artifacts.json'),
      `${JSON.stringify({ mode: options.quick ? 'quick' : 'full', reps, rows, heap, target: TARGET, met }, null, 2)}\n`,
    );
  }
  return met;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const repsAt = args.indexOf('--reps');
  const quick = args.includes('--quick');
  runArtifactBench({
    quick,
    ...(repsAt >= 0 ? { reps: Number(args[repsAt + 1]) } : {}),
    ...(quick ? {} : { out: path.join(here, '..', 'results') }),
  }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
