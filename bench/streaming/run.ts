/**
 * `npm run bench:streaming [-- --quick] [-- --reps N] [-- --out DIR]` (full runs write
 * bench/results/streaming.*; also a part of `npm run bench`): a model's reply streamed into a long
 * conversation (issue 31), stored by this store's drafts, by TanStack AI's `indexedDBPersistence`
 * and by a put per chunk in raw IndexedDB. Builds bench/streaming/ with Vite, serves it, and drives
 * headless Chromium on a fresh on-disk profile, in two passes:
 * - bytes and lag, once each: the bytes of every value the page hands IndexedDB's `put`/`add`
 *   (drafts in-thread, so the engine's writes are the page's), and, for drafts, a second page
 *   following the draft with `watchDrafts` (the store's default mode there): the time from each
 *   append until that page saw it;
 * - main-thread time, `reps` times, contenders rotated, nothing counted and no second page:
 *   Chromium's TaskDuration of the page (every task its main thread ran, through the DevTools
 *   protocol) over the stream and its storage, less that of the stream alone in the same repetition.
 * Prints the figures, the ratios and the targets (at least 100x fewer bytes than either rewrite, p95
 * lag under 100 ms); `--quick` (a 60-token reply into 20 messages) only checks the bench still runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { median, percentile } from '../stats.js';
import type { StreamResult } from './page.js';
import {
  BYTES_PASS,
  CONTENDERS,
  FULL,
  history,
  lagsOf,
  QUICK,
  replyChunks,
  type StreamingContender,
  type StreamingSizes,
  TIME_PASS,
} from './plan.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TARGET_BYTES_RATIO = 100;
const TARGET_LAG_P95_MS = 100;

export interface StreamingBenchOptions {
  quick: boolean;
  reps?: number;
  /** Where streaming.json and streaming.txt go; none when omitted. */
  out?: string;
}

const log = (message: string): void => {
  process.stderr.write(`[bench streaming ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface LagFigures {
  maxLossMs: number;
  p50: number;
  p95: number;
  max: number;
  /** p95 over the first and the last quarter of the appends: whether the lag grows with the draft. */
  firstQuarterP95: number;
  lastQuarterP95: number;
  samples: number;
  unseen: number;
  /** Every append's lag, in order. */
  lags: number[];
}

async function openPage(page: Page, url: string): Promise<Page> {
  page.on('pageerror', (error) => log(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') log(`page console: ${message.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => window.streamingBench !== undefined);
  return page;
}

/** Adds `value` to `key`'s list in `lists`. */
function add<K extends string>(lists: Partial<Record<K, number[]>>, key: K, value: number): void {
  const list = lists[key] ?? [];
  lists[key] = list;
  list.push(value);
}

const rotate = <T>(list: readonly T[], by: number): T[] => list.map((_, i) => list[(i + by) % list.length] as T);

export async function runStreamingBench(options: StreamingBenchOptions): Promise<boolean> {
  const sizes: StreamingSizes = { ...(options.quick ? QUICK : FULL) };
  if (options.reps !== undefined) sizes.repetitions = options.reps;
  const warmup: StreamingSizes | undefined = options.quick
    ? undefined
    : { ...sizes, replyTokens: Math.ceil(sizes.replyTokens / 10) };
  const chunks = replyChunks(sizes);
  const historyBytes = new Blob([JSON.stringify(history(sizes.historyMessages))]).size;
  const configFile = path.join(here, 'vite.config.ts');
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  const loadBefore = os.loadavg();
  log('building the streaming bench page');
  await build({ configFile });
  const server = await preview({ configFile, preview: { port: 4183, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview has no local URL');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-bench-streaming-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
  });
  const bytes: Partial<Record<StreamingContender, StreamResult>> = {};
  const lags: LagFigures[] = [];
  const taskMs: Partial<Record<StreamingContender, number[]>> = {};
  const overStream: Partial<Record<StreamingContender, number[]>> = {};
  const cpuMs: Partial<Record<StreamingContender, number[]>> = {};
  const cpuOverStream: Partial<Record<StreamingContender, number[]>> = {};
  const callMs: Partial<Record<StreamingContender, number[]>> = {};
  const wallMs: Partial<Record<StreamingContender, number[]>> = {};
  let browserVersion = '';
  let runNo = 0;
  try {
    browserVersion = context.browser()?.version() ?? '';
    const writer = await openPage(await context.newPage(), url);
    const reader = await openPage(await context.newPage(), url);

    log(`bytes and lag: ${chunks.length} chunks, one every ${sizes.paceMs} ms`);
    for (const contender of BYTES_PASS) {
      const runId = `run-${++runNo}`;
      const draft = CONTENDERS[contender].draft;
      await writer.evaluate(([c, r, s]) => window.streamingBench.prepare(c, r, s), [contender, runId, sizes] as const);
      if (draft) await reader.evaluate(([r]) => window.streamingBench.watch(r), [runId] as const);
      const result = await writer.evaluate(([c, r, s, o]) => window.streamingBench.run(c, r, s, o), [
        contender,
        runId,
        sizes,
        { countBytes: true, recordAppends: draft !== undefined, settleMs: draft ? draft.maxLossMs + 300 : 0 },
      ] as const);
      bytes[contender] = { ...result, appended: [] };
      if (draft) {
        const seen = await reader.evaluate(() => window.streamingBench.stopWatch());
        const { lags: each, unseen } = lagsOf(result.appended, seen);
        if (each.length === 0) throw new Error(`the second page saw none of ${contender}'s draft`);
        const quarter = Math.max(1, Math.floor(each.length / 4));
        lags.push({
          maxLossMs: draft.maxLossMs,
          p50: median(each),
          p95: percentile(each, 95),
          max: Math.max(...each),
          firstQuarterP95: percentile(each.slice(0, quarter), 95),
          lastQuarterP95: percentile(each.slice(-quarter), 95),
          samples: each.length,
          unseen,
          lags: each.map((l) => Math.round(l)),
        });
      }
      await writer.evaluate(([c, r]) => window.streamingBench.cleanup(c, r), [contender, runId] as const);
      log(`  ${contender}: ${result.writes} writes, ${result.bytes} bytes`);
    }
    await reader.close();

    // Two sessions, one per time domain: the tasks' wall time (what holds the page up) and the
    // thread's CPU time in them (the work, which a busy machine does not stretch).
    const wall = await context.newCDPSession(writer);
    await wall.send('Performance.enable', { timeDomain: 'timeTicks' });
    const cpu = await context.newCDPSession(writer);
    await cpu.send('Performance.enable', { timeDomain: 'threadTicks' });
    const taskSeconds = async (session: typeof wall): Promise<number> => {
      const { metrics } = (await session.send('Performance.getMetrics')) as {
        metrics: { name: string; value: number }[];
      };
      const found = metrics.find((m) => m.name === 'TaskDuration');
      if (!found) throw new Error('Chromium reports no TaskDuration');
      return found.value;
    };
    const measure = async (contender: StreamingContender, s: StreamingSizes) => {
      const runId = `run-${++runNo}`;
      await writer.evaluate(([c, r, z]) => window.streamingBench.prepare(c, r, z), [contender, runId, s] as const);
      await sleep(300); // the setup's writes settle, as a conversation loaded a while ago has
      const before = await taskSeconds(wall);
      const beforeCpu = await taskSeconds(cpu);
      const result = await writer.evaluate(([c, r, z, o]) => window.streamingBench.run(c, r, z, o), [
        contender,
        runId,
        s,
        { countBytes: false, recordAppends: false, settleMs: 0 },
      ] as const);
      const task = ((await taskSeconds(wall)) - before) * 1000;
      const taskCpu = ((await taskSeconds(cpu)) - beforeCpu) * 1000;
      await writer.evaluate(([c, r]) => window.streamingBench.cleanup(c, r), [contender, runId] as const);
      return { task, taskCpu, result };
    };
    if (warmup) {
      log('main-thread time: a warm-up of each contender (a tenth of the reply)');
      for (const contender of TIME_PASS) await measure(contender, warmup);
    }
    for (let rep = 0; rep < sizes.repetitions; rep++) {
      log(`main-thread time: repetition ${rep + 1}/${sizes.repetitions}`);
      const tasks: Partial<Record<StreamingContender, number>> = {};
      const cpus: Partial<Record<StreamingContender, number>> = {};
      for (const contender of rotate(TIME_PASS, rep)) {
        const { task, taskCpu, result } = await measure(contender, sizes);
        tasks[contender] = task;
        cpus[contender] = taskCpu;
        add(taskMs, contender, task);
        add(cpuMs, contender, taskCpu);
        add(callMs, contender, result.callMs);
        add(wallMs, contender, result.wallMs);
      }
      for (const contender of TIME_PASS) {
        add(overStream, contender, (tasks[contender] as number) - (tasks.baseline as number));
        add(cpuOverStream, contender, (cpus[contender] as number) - (cpus.baseline as number));
      }
    }
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  }

  // --- the report ----------------------------------------------------------------------------------
  const bytesOf = (c: StreamingContender): number => bytes[c]?.bytes ?? Number.NaN;
  const ratio = (over: StreamingContender, under: StreamingContender): number => bytesOf(over) / bytesOf(under);
  const references: StreamingContender[] = ['tanstack', 'naive-message', 'naive-conversation'];
  const drafts: StreamingContender[] = ['draft-250', 'draft-50', 'draft-0'];
  const ratios = Object.fromEntries(
    drafts.map((d) => [d, Object.fromEntries(references.map((r) => [r, ratio(r, d)]))]),
  ) as Record<string, Record<string, number>>;
  const bytesMet = ['tanstack', 'naive-message'].every((r) => (ratios['draft-250']?.[r] ?? 0) >= TARGET_BYTES_RATIO);
  const lagMeets = lags.filter((l) => l.p95 < TARGET_LAG_P95_MS).map((l) => l.maxLossMs);
  const size = (n: number): string =>
    n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} KB` : `${n} B`;
  const ms = (v: number): string => (Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(0));
  const x = (v: number): string => `${v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)}x`;
  const pad = (s: string, n: number): string => s.padStart(n);
  const load = `load ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after`;
  const reply = bytes['draft-250']?.textLength ?? 0;
  const lines = [
    `streaming: a ${sizes.replyTokens.toLocaleString('en-US')}-token reply (${chunks.length} chunks of ${sizes.minChunk}-${sizes.maxChunk} tokens, one every ${sizes.paceMs} ms, ${size(reply)} of text) into a ${sizes.historyMessages}-message conversation (${size(historyBytes)}); Chromium ${browserVersion}, on-disk profile; ${os.cpus().length} CPUs, ${load}${options.quick ? ' QUICK: figures mean nothing' : ''}`,
    '',
    'bytes handed to IndexedDB while streaming (UTF-8 bytes of the JSON of every value given to put/add in the page; drafts in-thread, begin to finish)',
    `${'contender'.padEnd(52)}  writes        bytes   over draft 250   over draft 0`,
    ...[...references, ...drafts].map(
      (c) =>
        `${CONTENDERS[c].label.padEnd(52)}${pad(String(bytes[c]?.writes ?? '-'), 8)}${pad(size(bytesOf(c)), 13)}${pad(x(ratio(c, 'draft-250')), 17)}${pad(x(ratio(c, 'draft-0')), 15)}`,
    ),
    '',
    `main-thread time over the stream (Chromium's TaskDuration of the page's main thread, median of ${sizes.repetitions}): the tasks' wall time and the thread's CPU time in them, each less the stream alone's in the same repetition; and the time inside the per-chunk calls, ms`,
    `${'contender'.padEnd(52)}    wall   over the stream     CPU   over the stream   in the calls`,
    ...TIME_PASS.map((c) => {
      const m = (lists: Partial<Record<StreamingContender, number[]>>): string => ms(median(lists[c] ?? [Number.NaN]));
      const over = (lists: Partial<Record<StreamingContender, number[]>>): string =>
        c === 'baseline' ? '-' : m(lists);
      return `${CONTENDERS[c].label.padEnd(52)}${pad(m(taskMs), 8)}${pad(over(overStream), 18)}${pad(m(cpuMs), 8)}${pad(over(cpuOverStream), 18)}${pad(m(callMs), 15)}`;
    }),
    '',
    'second-tab lag: another page following the draft with watchDrafts (the writer in-thread), from each append until that page held its text, ms',
    'maxLossMs     p50     p95     max   p95 first / last quarter   appends   not seen before finish',
    ...lags.map(
      (l) =>
        `${pad(String(l.maxLossMs), 9)}${pad(ms(l.p50), 8)}${pad(ms(l.p95), 8)}${pad(ms(l.max), 8)}${pad(`${ms(l.firstQuarterP95)} / ${ms(l.lastQuarterP95)}`, 27)}${pad(String(l.samples), 10)}${pad(String(l.unseen), 25)}`,
    ),
    '',
    `targets: at least ${TARGET_BYTES_RATIO}x fewer bytes than TanStack's and than a put of the message per chunk, at the default maxLossMs 250 (${x(ratios['draft-250']?.tanstack ?? Number.NaN)}, ${x(ratios['draft-250']?.['naive-message'] ?? Number.NaN)}): ${bytesMet ? 'met' : 'NOT met'}; second-tab p95 lag under ${TARGET_LAG_P95_MS} ms: ${lagMeets.length ? `met with maxLossMs ${lagMeets.join(', ')}` : 'NOT met'}${
      lags.some((l) => l.p95 >= TARGET_LAG_P95_MS)
        ? `, not with ${lags
            .filter((l) => l.p95 >= TARGET_LAG_P95_MS)
            .map((l) => l.maxLossMs)
            .join(', ')}`
        : ''
    }`,
  ];
  const text = lines.join('\n');
  process.stdout.write(`${text}\n`);
  if (options.out) {
    await mkdir(options.out, { recursive: true });
    await writeFile(path.join(options.out, 'streaming.txt'), `${text}\n`);
    await writeFile(
      path.join(options.out, 'streaming.json'),
      `${JSON.stringify(
        {
          mode: options.quick ? 'quick' : 'full',
          sizes,
          chunks: chunks.length,
          replyChars: reply,
          historyBytes,
          browser: browserVersion,
          machine: { cpus: os.cpus().length, loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
          bytesMeasure: 'UTF-8 bytes of JSON.stringify(value) for every IDBObjectStore put/add in the page',
          bytes: Object.fromEntries(Object.entries(bytes).map(([c, r]) => [c, { bytes: r.bytes, writes: r.writes }])),
          bytesRatios: ratios,
          mainThread: {
            measure:
              "Chromium's Performance.getMetrics TaskDuration of the page over run(), in timeTicks (taskMs) and threadTicks (cpuMs); overStream subtracts the baseline's of the same repetition",
            taskMs,
            overStreamMs: overStream,
            cpuMs,
            cpuOverStreamMs: cpuOverStream,
            callMs,
            wallMs,
          },
          lag: lags,
          targets: {
            bytesRatio: TARGET_BYTES_RATIO,
            bytesMet,
            lagP95Ms: TARGET_LAG_P95_MS,
            lagMetWithMaxLossMs: lagMeets,
          },
        },
        null,
        2,
      )}\n`,
    );
  }
  return bytesMet && lagMeets.length > 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const repsAt = args.indexOf('--reps');
  const outAt = args.indexOf('--out');
  const quick = args.includes('--quick');
  const reps = repsAt >= 0 ? Number(args[repsAt + 1]) : undefined;
  if (reps !== undefined && !(Number.isInteger(reps) && reps > 0)) throw new Error('--reps needs a positive integer');
  runStreamingBench({
    quick,
    ...(reps !== undefined ? { reps } : {}),
    ...(outAt >= 0
      ? { out: path.resolve(args[outAt + 1] as string) }
      : quick
        ? {}
        : { out: path.join(here, '..', 'results') }),
  }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
