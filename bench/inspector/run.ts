/**
 * `npm run bench:inspector [-- --quick] [-- --reps 7] [-- --events 10000] [-- --px 600] [-- --out DIR]`:
 * the inspector on a long session. Builds bench/inspector/ with Vite, serves it, and drives headless
 * Chromium on a fresh on-disk profile at 1280x800. Seeds a store with a few short sessions and,
 * newest, one of `--events` agent events; then, a fresh page per measurement, baseline and inspector
 * interleaved:
 * - open: `mountInspector(store, { position: 'full' })` and `open()` until the frame that paints the
 *   newest event's row is rendered (and, apart, until the tasks queued before it have run too: the
 *   views' own effects), and until the whole session is joined; the baseline is the store's own
 *   `getSession` of the whole session in a page like it (both after the page's first call to its store);
 * - scroll: the list from top to bottom, `--px` px a frame set on `scrollTop`, then by mouse wheel,
 *   every frame's `requestAnimationFrame` delta and Chromium's long-animation-frame entries; the
 *   baseline is as many frames of the same page standing still (what the machine's load does alone).
 * Prints medians and p95 of the repetitions, the ratio to the baseline, and the targets (open < 200
 * ms, no frame over 50 ms while scrolling); `--out` also writes inspector.json and inspector.txt.
 * `--quick` (1,000 events, 1 repetition, no warm-up) only checks the bench still runs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright';
import { build, preview } from 'vite';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { median, percentile } from '../stats.js';
import type { BaselineTimes, FrameTimes, OpenTimes } from './page.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const TARGET_OPEN_MS = 200;
const LONG_FRAME_MS = 50;

export interface InspectorBenchOptions {
  quick: boolean;
  reps?: number;
  events?: number;
  pxPerFrame?: number;
  /** Where inspector.json and inspector.txt go; none when omitted. */
  out?: string;
}

const log = (message: string): void => {
  process.stderr.write(`[bench inspector ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

interface FrameSummary {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  over50: number;
  longAnimationFrames: number;
  longestAnimationFrame: number;
  reachedEnd: boolean;
}

const summarizeFrames = (t: FrameTimes): FrameSummary => ({
  frames: t.deltas.length,
  p50: median(t.deltas),
  p95: percentile(t.deltas, 95),
  max: Math.max(...t.deltas),
  over50: t.deltas.filter((d) => d > LONG_FRAME_MS).length,
  longAnimationFrames: t.longFrames.length,
  longestAnimationFrame: t.longFrames.length ? Math.max(...t.longFrames) : 0,
  reachedEnd: t.reachedEnd,
});

async function freshPage(url: string, open: (url: string) => Promise<Page>): Promise<Page> {
  const page = await open(url);
  page.on('pageerror', (error) => log(`page error: ${error.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.inspectorBench !== undefined);
  return page;
}

/** Wheel steps over the list until its end, a frame apart. */
async function wheelToEnd(page: Page, delta: number): Promise<FrameTimes> {
  const box = await page.evaluate(() => {
    const el = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot?.querySelector('.scroller');
    const r = el?.getBoundingClientRect();
    return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : undefined;
  });
  if (!box) throw new Error('no event list to scroll');
  await page.mouse.move(box.x, box.y);
  await page.evaluate(() => window.inspectorBench.startFrames());
  for (let step = 0; step < 5000; step++) {
    await page.mouse.wheel(0, delta);
    const atEnd = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() => {
            const el = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot?.querySelector('.scroller');
            resolve(!el || el.scrollTop + el.clientHeight >= el.scrollHeight - 1);
          }),
        ),
    );
    if (atEnd) break;
  }
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
  return page.evaluate(() => window.inspectorBench.stopFrames());
}

export async function runInspectorBench(options: InspectorBenchOptions): Promise<boolean> {
  const events = options.events ?? (options.quick ? 1000 : 10_000);
  const reps = options.reps ?? (options.quick ? 1 : 7);
  const px = options.pxPerFrame ?? 600;
  const configFile = path.join(here, 'vite.config.ts');
  process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';
  const loadBefore = os.loadavg();
  log('building the inspector bench page');
  await build({ configFile });
  const server = await preview({ configFile, preview: { port: 4182, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview has no local URL');
  const profile = await mkdtemp(path.join(os.tmpdir(), 'idb-adk-bench-inspector-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
  const opens: OpenTimes[] = [];
  const baselines: BaselineTimes[] = [];
  const scrolls: FrameSummary[] = [];
  const wheels: FrameSummary[] = [];
  const idles: FrameSummary[] = [];
  let browserVersion = '';
  try {
    browserVersion = context.browser()?.version() ?? '';
    const newPage = () => context.newPage();
    const seeder = await freshPage(url, newPage);
    log(`seeding ${events} events (and short sessions)`);
    const seeded = await seeder.evaluate(([n]) => window.inspectorBench.seed(n, 12), [events] as const);
    log(`  seeded in ${Math.round(seeded.ms)} ms`);
    if (seeded.stored !== events) throw new Error(`the store holds ${seeded.stored} events of ${events}`);
    await seeder.close();
    // A warm-up of each (the page's code and the views' chunk fetched once), then the repetitions.
    for (let rep = options.quick ? 0 : -1; rep < reps; rep++) {
      const order = rep % 2 === 0 ? ['baseline', 'inspector'] : ['inspector', 'baseline'];
      for (const what of order) {
        const page = await freshPage(url, newPage);
        if (what === 'baseline') {
          const times = await page.evaluate(() => window.inspectorBench.baseline());
          if (times.events !== events) throw new Error(`getSession read ${times.events} events of ${events}`);
          if (rep >= 0) baselines.push(times);
        } else {
          const times = await page.evaluate(([n]) => window.inspectorBench.open(n), [events] as const);
          if (rep >= 0) {
            opens.push(times);
            const scroll = summarizeFrames(
              await page.evaluate(([p]) => window.inspectorBench.scroll(p), [px] as const),
            );
            const wheel = summarizeFrames(await wheelToEnd(page, px * 2));
            const idle = summarizeFrames(
              await page.evaluate(([n]) => window.inspectorBench.idle(n), [scroll.frames] as const),
            );
            scrolls.push(scroll);
            wheels.push(wheel);
            idles.push(idle);
            log(
              `rep ${rep + 1}: open ${times.shownMs.toFixed(0)} ms (all joined ${times.completeMs.toFixed(0)}), scroll p95 ${scroll.p95.toFixed(1)} ms, ${scroll.over50} frames > 50 ms; wheel p95 ${wheel.p95.toFixed(1)} ms, ${wheel.over50} > 50 ms`,
            );
          }
        }
        await page.close();
      }
    }
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
  }

  const stat = (xs: number[]) => ({ median: median(xs), p95: percentile(xs, 95), max: Math.max(...xs) });
  const shown = stat(opens.map((o) => o.shownMs));
  const settled = stat(opens.map((o) => o.settledMs));
  const inDom = stat(opens.map((o) => o.inDomMs));
  const complete = stat(opens.map((o) => o.completeMs));
  const whole = stat(baselines.map((b) => b.wholeMs));
  const ratio = median(opens.map((o, i) => o.shownMs / (baselines[i] as BaselineTimes).wholeMs));
  const frames = (list: FrameSummary[]) => ({
    p95: median(list.map((s) => s.p95)),
    max: Math.max(...list.map((s) => s.max)),
    over50: list.reduce((n, s) => n + s.over50, 0),
    frames: list.reduce((n, s) => n + s.frames, 0),
    longAnimationFrames: list.reduce((n, s) => n + s.longAnimationFrames, 0),
    longestAnimationFrame: Math.max(...list.map((s) => s.longestAnimationFrame)),
    reachedEnd: list.every((s) => s.reachedEnd),
  });
  const scroll = frames(scrolls);
  const wheel = frames(wheels);
  const idle = frames(idles);
  const openMet = shown.median < TARGET_OPEN_MS;
  const scrollMet = scroll.over50 === 0 && wheel.over50 === 0;
  const ms = (v: number): string => v.toFixed(v < 10 ? 1 : 0).padStart(6);
  const load = `load ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after`;
  const frameLine = (label: string, f: ReturnType<typeof frames>) =>
    `${label} ${ms(f.p95)} ms p95 frame (median of reps), longest ${ms(f.max)} ms, ${f.over50} of ${f.frames} frames > ${LONG_FRAME_MS} ms, ${f.longAnimationFrames} long animation frames (longest ${f.longestAnimationFrame.toFixed(0)} ms)${f.reachedEnd ? '' : ', DID NOT REACH THE END'}`;
  const lines = [
    `inspector on a ${events.toLocaleString('en-US')}-event session (${reps} repetition(s)${options.quick ? '' : ' after a warm-up'}, a fresh page each; Chromium ${browserVersion}, 1280x800, on-disk profile; ${os.cpus().length} CPUs, ${load})${options.quick ? ' QUICK: figures mean nothing' : ''}`,
    '                                       median      p95      max',
    `open() to the newest row painted      ${ms(shown.median)}   ${ms(shown.p95)}   ${ms(shown.max)}  ms`,
    `  and the tasks queued before it run  ${ms(settled.median)}   ${ms(settled.p95)}   ${ms(settled.max)}  ms`,
    `open() to the newest row in the DOM   ${ms(inDom.median)}   ${ms(inDom.p95)}   ${ms(inDom.max)}  ms`,
    `open() to all events joined           ${ms(complete.median)}   ${ms(complete.p95)}   ${ms(complete.max)}  ms`,
    `baseline: getSession (whole session)  ${ms(whole.median)}   ${ms(whole.p95)}   ${ms(whole.max)}  ms`,
    `open to newest row / getSession: ${ratio.toFixed(2)}x (median of per-repetition ratios); rows in the DOM: ${Math.max(...opens.map((o) => o.rowsInDom))}`,
    frameLine(`scroll top to bottom, ${px} px a frame:`, scroll),
    frameLine(`mouse wheel top to bottom, ${px * 2} px a step:`, wheel),
    frameLine('baseline: the same page standing still:', idle),
    `targets: open < ${TARGET_OPEN_MS} ms: ${openMet ? 'met' : 'NOT met'}; no frame > ${LONG_FRAME_MS} ms while scrolling: ${scrollMet ? 'met' : 'NOT met'}`,
  ];
  const text = lines.join('\n');
  process.stdout.write(`${text}\n`);
  if (options.out) {
    await mkdir(options.out, { recursive: true });
    await writeFile(path.join(options.out, 'inspector.txt'), `${text}\n`);
    await writeFile(
      path.join(options.out, 'inspector.json'),
      `${JSON.stringify(
        {
          mode: options.quick ? 'quick' : 'full',
          events,
          reps,
          pxPerFrame: px,
          browser: browserVersion,
          machine: { cpus: os.cpus().length, loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
          open: { shown, settled, inDom, complete, baselineGetSession: whole, ratio, runs: opens, baselines },
          scroll: { ...scroll, runs: scrolls },
          wheel: { ...wheel, runs: wheels },
          idle: { ...idle, runs: idles },
          targets: { openMs: TARGET_OPEN_MS, longFrameMs: LONG_FRAME_MS, openMet, scrollMet },
        },
        null,
        2,
      )}\n`,
    );
  }
  if (!scroll.reachedEnd || !wheel.reachedEnd) throw new Error('the list did not show the newest event at its end');
  return openMet && scrollMet;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const number = (flag: string): number | undefined => {
    const at = args.indexOf(flag);
    if (at < 0) return undefined;
    const value = Number(args[at + 1]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a positive integer`);
    return value;
  };
  const outAt = args.indexOf('--out');
  const quick = args.includes('--quick');
  const reps = number('--reps');
  const events = number('--events');
  const pxPerFrame = number('--px');
  runInspectorBench({
    quick,
    ...(reps !== undefined ? { reps } : {}),
    ...(events !== undefined ? { events } : {}),
    ...(pxPerFrame !== undefined ? { pxPerFrame } : {}),
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
