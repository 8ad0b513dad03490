/**
 * `npm run bench [-- --quick] [-- --reps N] [-- --only w1,w2] [-- --contenders c1,c2] [-- --browser firefox] [-- --out DIR]`:
 * builds the bench page, serves it, drives a headless browser (Chromium unless `--browser` names
 * another engine of scripts/engines) with a fresh on-disk profile (an
 * in-memory profile flatters IndexedDB), runs every contender on every
 * workload (a warm-up, then the repetitions, contenders interleaved so drift
 * hits all alike), and writes the table, latest.json and chart.svg. `--only`
 * runs the named workloads alone and `--contenders` the named contenders
 * (cheap before/after runs on a shared machine: Dexie's writes take most of a
 * full run); either writes to a temporary folder unless `--out` says otherwise.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { build, preview } from 'vite';
import { engines } from '../scripts/engines/index.js';
import { runArtifactBench } from './artifacts/run.js';
import { renderChart } from './chart.js';
import type { ContenderId } from './contender.js';
import { runInspectorBench } from './inspector/run.js';
import { parseArgs, selection } from './options.js';
import {
  CONTENDER_LABELS,
  CONTENDERS,
  DATABASES,
  FIGURES,
  FULL,
  QUICK,
  READERS,
  repetitionsOf,
  runsIn,
  type Sizes,
  SLOW,
  WORKLOADS,
  type WorkloadId,
  warmupSizes,
} from './plan.js';
import {
  computeRatioSummaries,
  computeRatios,
  dexieRatioName,
  evaluateTargets,
  formatMs,
  formatTable,
  formatTargets,
  type Measured,
  summarizeFigures,
} from './report.js';
import { runSearchBench } from './search/run.js';
import { summarize } from './stats.js';
import { runStreamingBench } from './streaming/run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const configFile = path.join(here, 'vite.config.ts');
const COLORS: Record<ContenderId, string> = {
  'raw-one-tx': '#7f7f7f',
  'raw-tx-per-event': '#bcbd22',
  dexie: '#d62728',
  'store-in-thread': '#6baed6',
  'store-worker': '#08519c',
};

const log = (message: string): void => {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A stuck contender fails the run instead of hanging it (the smoke run is part of `npm test`). */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function openBenchPage(page: Page, url: string): Promise<void> {
  page.on('pageerror', (error) => log(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') log(`page console: ${message.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => window.bench !== undefined);
}

/** "Dexie's in the first 1 repetition, tx/event's in the first 2" for the report's header. */
function slowPairs(sizes: Sizes, optedOut: (w: WorkloadId, c: ContenderId) => boolean): string {
  return Object.entries(SLOW)
    .map(([c, slow]) =>
      slow.workloads.every((w) => optedOut(w, c as ContenderId))
        ? `${CONTENDER_LABELS[c as ContenderId]}: not run (--dexie-writes runs them)`
        : `${CONTENDER_LABELS[c as ContenderId]}: the first ${Math.min(slow.repetitions, sizes.repetitions)}`,
    )
    .join(', ');
}

/** Rotates the contender order per repetition, so no contender always runs first or last. */
const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);

function record(measured: Measured, workload: keyof Measured, contender: ContenderId, metrics: Record<string, number>) {
  const byContender = measured[workload] ?? {};
  measured[workload] = byContender;
  const byMetric = byContender[contender] ?? {};
  byContender[contender] = byMetric;
  for (const [metric, value] of Object.entries(metrics)) byMetric[metric] = [...(byMetric[metric] ?? []), value];
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const sizes: Sizes = options.quick
    ? QUICK
    : {
        ...FULL,
        repetitions: options.reps ?? FULL.repetitions,
        // `--reps N` asks for N of everything, and as many more of the short workloads as a full run adds.
        shortRepetitions: (options.reps ?? FULL.repetitions) * (FULL.shortRepetitions / FULL.repetitions),
      };
  const { chosen, taking, optedOut, needsFixtures, targeted } = selection(options);
  const outDir =
    options.out ??
    (options.quick || targeted
      ? path.join(os.tmpdir(), options.quick ? 'idb-adk-bench-quick' : 'idb-adk-bench-only')
      : path.join(here, 'results', options.browser === 'chromium' ? '' : options.browser));
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  const startedAt = Date.now();
  const loadBefore = os.loadavg();
  /** Longest one measurement may take: generous, so only a hang trips it. */
  const limitMs = options.quick ? 60_000 : 600_000;

  log('building the bench page');
  await build({ configFile });
  const server = await preview({ configFile, preview: { port: 4180, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview has no local URL');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-bench-profile-'));
  const engine = engines[options.browser];
  const context = await engine.browserType.launchPersistentContext(profile, {
    ...engine.launchOptions,
    headless: true,
  });
  const measured: Measured = {};
  const fixtures: Partial<Record<ContenderId, Record<string, number>>> = {};
  /** Contenders reading another's fixtures, as their database is the same. */
  const sharing: Partial<Record<ContenderId, ContenderId>> = {};
  let browser: unknown;
  try {
    const page = await context.newPage();
    await openBenchPage(page, url);
    browser = { ...(await page.evaluate(() => window.bench.info())), version: context.browser()?.version() };
    log(`profile on disk at ${profile}; ${JSON.stringify(browser)}`);

    const built = new Map<string, ContenderId>();
    for (const contender of needsFixtures ? taking(READERS) : []) {
      const sharer = built.get(DATABASES[contender]);
      if (sharer) {
        log(`fixtures: ${contender} reads those of ${sharer} (one database)`);
        sharing[contender] = sharer;
        continue;
      }
      built.set(DATABASES[contender], contender);
      log(`fixtures: ${contender}`);
      fixtures[contender] = await within(
        limitMs * 4,
        `fixtures of ${contender}`,
        page.evaluate(([c, s]) => window.bench.setup(c, s), [contender, sizes] as const),
      );
      log(
        `  ${Object.entries(fixtures[contender] ?? {})
          .map(([k, v]) => `${k}: ${formatMs(v)} ms`)
          .join(', ')}`,
      );
    }

    const warmups = sizes.warmup ? 1 : 0;
    const runs = warmups + sizes.repetitions;
    for (let rep = 0; rep < repetitionsOf(sizes, warmups); rep++) {
      log(
        `repetition ${rep + 1}/${repetitionsOf(sizes, warmups)}${rep < warmups ? ' (warm-up)' : rep >= runs ? ' (short workloads)' : ''}`,
      );
      for (const workload of WORKLOADS) {
        if (workload.id === 'coldStart' || !chosen(workload.id)) continue;
        for (const contender of rotate(taking(workload.contenders, workload.id), rep)) {
          if (!runsIn(workload.id, contender, rep, warmups, sizes)) continue;
          const metrics = await within(
            limitMs,
            `${workload.id} on ${contender}`,
            page.evaluate(([w, c, s, r]) => window.bench.measure(w, c, s, r), [
              workload.id,
              contender,
              rep < warmups ? warmupSizes(sizes) : sizes,
              rep,
            ] as const),
          );
          if (rep >= warmups) record(measured, workload.id, contender, metrics);
        }
      }
    }
    await page.evaluate(() => window.bench.closeAll());
    await page.close();

    const cold = chosen('coldStart') ? (WORKLOADS.find((w) => w.id === 'coldStart')?.contenders ?? []) : [];
    for (let rep = 0; rep < runs; rep++) {
      log(`cold start ${rep + 1}/${runs}${rep < warmups ? ' (warm-up)' : ''}`);
      for (const contender of rotate(taking(cold), rep)) {
        // With no page open, the browser releases the database files after a short grace period.
        await sleep(sizes.coldStartIdleMs);
        const fresh = await context.newPage();
        await openBenchPage(fresh, url);
        const metrics = await within(
          limitMs,
          `cold start of ${contender}`,
          fresh.evaluate(([c, s]) => window.bench.coldStart(c, s), [contender, sizes] as const),
        );
        await fresh.close();
        if (rep >= warmups) record(measured, 'coldStart', contender, metrics);
      }
    }
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  }

  const figures = summarizeFigures(measured);
  const ratios = computeRatios(figures);
  const ratioSummaries = computeRatioSummaries(figures);
  // Targets of pairs the run left out (`OPT_IN`) are not missed, only not asked for.
  const leftOut = new Set(FIGURES.filter((f) => optedOut(f.workload, 'dexie')).map((f) => dexieRatioName(f.name)));
  const targets = evaluateTargets(ratios, ratioSummaries).filter((t) => !leftOut.has(t.ratio));
  const median = (figure: string, c: ContenderId): number | null => figures[figure]?.[c]?.median ?? null;
  const roundTrip = {
    appendEventP50: {
      inThreadMs: median('sequentialP50', 'store-in-thread'),
      workerMs: median('sequentialP50', 'store-worker'),
    },
    getSessionP50: {
      inThreadMs: median('pointReadP50', 'store-in-thread'),
      workerMs: median('pointReadP50', 'store-worker'),
    },
  };
  const workerReady = measured.coldStart?.['store-worker']?.readyMs;
  const coldStartWorkerReadyMs = workerReady && workerReady.length > 0 ? summarize(workerReady).median : null;
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: os.loadavg(),
  };
  const text = [
    `idb-adk-sessions benchmark (${options.quick ? 'QUICK smoke run: sizes are tiny, figures mean nothing' : 'full'}), ${sizes.repetitions} repetition(s)${sizes.warmup ? ' after a warm-up' : ''} (${sizes.shortRepetitions} of the short reads; 10,000-write workloads of ${slowPairs(sizes, optedOut)})`,
    `${machine.cpus} CPUs, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${machine.loadAverageAfter.map((l) => l.toFixed(2)).join(' ')} after; ${engine.name} ${String((browser as { version?: string })?.version)}, on-disk profile`,
    '',
    formatTable(figures, sizes),
    '',
    'Ratios: the store through its worker over the reference, taken per repetition; median and spread (below 1 = the store is faster).',
    // A targeted run leaves most figures unmeasured: listing those targets as missed would mislead.
    formatTargets(targeted ? targets.filter((t) => t.measured !== null) : targets),
    '',
    `Round trip through the worker vs in-thread (p50): appendEvent ${fmt(roundTrip.appendEventP50.workerMs)} vs ${fmt(roundTrip.appendEventP50.inThreadMs)} ms, getSession (${sizes.pointReadEvents} events) ${fmt(roundTrip.getSessionP50.workerMs)} vs ${fmt(roundTrip.getSessionP50.inThreadMs)} ms`,
    `Cold start through the worker: the worker answers its hello after ${fmt(coldStartWorkerReadyMs)} ms (median); a first read made before that is answered by the page itself`,
    '',
    'Fixture build times (ms):',
    ...Object.entries(fixtures).map(
      ([c, times]) =>
        `  ${CONTENDER_LABELS[c as ContenderId]}: ${Object.entries(times ?? {})
          .map(([k, v]) => `${k} ${formatMs(v)}`)
          .join('; ')}`,
    ),
    ...Object.entries(sharing).map(
      ([c, sharer]) =>
        `  ${CONTENDER_LABELS[c as ContenderId]}: reads those of ${CONTENDER_LABELS[sharer]} (one database)`,
    ),
  ].join('\n');
  process.stdout.write(`${text}\n`);

  const result = {
    schema: 1,
    mode: options.quick ? 'quick' : 'full',
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt) / 1000),
    machine,
    browser,
    sizes,
    ratioConvention:
      'store through its worker (contender 5) over the named reference, per repetition, median over repetitions; below 1 = the store is faster',
    contenders: CONTENDER_LABELS,
    figures: Object.fromEntries(
      FIGURES.map((f) => [
        f.name,
        { label: f.label(sizes), workload: f.workload, metric: f.metric, unit: 'ms', contenders: figures[f.name] },
      ]),
    ),
    ratios,
    ratioSpreads: Object.fromEntries(Object.entries(ratioSummaries).map(([name, r]) => [name, r.spread])),
    targets,
    roundTrip,
    coldStartWorkerReadyMs,
    fixturesMs: fixtures,
  };
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(outDir, 'latest.txt'), `${text}\n`);
  const chart = renderChart(
    `idb-adk-sessions vs raw IndexedDB and Dexie: median ms, log scale (shorter is better)`,
    CONTENDERS.map((c) => ({ id: c, label: CONTENDER_LABELS[c], color: COLORS[c] })),
    FIGURES.map((f) => ({
      label: f.label(sizes),
      values: Object.fromEntries(Object.entries(figures[f.name] ?? {}).map(([c, s]) => [c, s.median])),
    })),
  );
  await writeFile(path.join(outDir, 'chart.svg'), chart);
  log(`wrote ${path.join(outDir, 'latest.json')}, latest.txt and chart.svg in ${result.durationSeconds} s`);
  // Artifacts have their own page and driver (bench/artifacts/run.ts); a narrowed run leaves them out,
  // and so does another engine: that bench reads the heap through the DevTools protocol.
  if (!targeted && engine.name === 'chromium') await runArtifactBench({ quick: options.quick, out: outDir });
  // So has search (bench/search/run.ts), driven in Chromium.
  if (!targeted && engine.name === 'chromium') await runSearchBench({ quick: options.quick, out: outDir });
  // So has the inspector on a long session (bench/inspector/run.ts), also Chromium's: it reads long animation frames.
  if (!targeted && engine.name === 'chromium') await runInspectorBench({ quick: options.quick, out: outDir });
  // So has a reply streamed into a long conversation (bench/streaming/run.ts): it reads Chromium's task times.
  if (!targeted && engine.name === 'chromium') await runStreamingBench({ quick: options.quick, out: outDir });
}

function fmt(ms: number | null): string {
  return ms === null ? 'n/a' : formatMs(ms);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
