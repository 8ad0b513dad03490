/**
 * The benchmark driver's pure pieces: statistics, ratio names and target
 * verdicts, the record generator and the SVG chart. The benchmark itself runs
 * with `npm run bench` (its numbers are not asserted anywhere).
 */
import { describe, expect, it } from 'vitest';
import { decadeLabel, renderChart } from '../../bench/chart.js';
import type { ContenderId } from '../../bench/contender.js';
import { makeEvent, makeEvents, stateAfter } from '../../bench/events.js';
import { parseArgs, selection } from '../../bench/options.js';
import { FIGURES, FULL, repetitionsOf, runsIn, type WorkloadId, warmupSizes } from '../../bench/plan.js';
import {
  computeRatioSummaries,
  computeRatios,
  dexieRatioName,
  evaluateTargets,
  type FigureTable,
  formatMs,
  formatTable,
  formatTargets,
  summarizeFigures,
} from '../../bench/report.js';
import { median, percentile, summarize } from '../../bench/stats.js';
import { lagsOf, replyChunks, replyTokens, FULL as STREAMING_FULL } from '../../bench/streaming/plan.js';

describe('percentile', () => {
  it('interpolates between the nearest ranks', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20], 25)).toBe(12.5);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBeCloseTo(99.01, 10);
  });

  it('gives the extremes at 0 and 100 and does not depend on input order', () => {
    const values = [5, 1, 9, 3];
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(9);
    expect(median(values)).toBe(4);
    expect(values).toEqual([5, 1, 9, 3]);
  });

  it('rejects no values and a rank outside 0..100', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('reports median, extremes and the spread relative to the median', () => {
    const s = summarize([12, 10, 8, 11, 9]);
    expect(s).toMatchObject({ median: 10, min: 8, max: 12, values: [12, 10, 8, 11, 9] });
    expect(s.spread).toBeCloseTo(0.4, 10);
  });

  it('has no spread for a single repetition', () => {
    expect(summarize([3]).spread).toBe(0);
  });
});

/** Figures where each contender's median is given: `{ figure: { contender: ms } }`. */
function table(medians: Record<string, Record<string, number>>): FigureTable {
  const out: FigureTable = {};
  for (const [figure, row] of Object.entries(medians)) {
    out[figure] = Object.fromEntries(Object.entries(row).map(([c, ms]) => [c, summarize([ms])]));
  }
  return out;
}

describe('ratios', () => {
  const figures = table({
    concurrentAppend: { 'raw-one-tx': 100, 'raw-tx-per-event': 2000, dexie: 4000, 'store-worker': 150 },
    sequentialP50: { 'raw-one-tx': 0.5, 'store-in-thread': 0.5, dexie: 2, 'store-worker': 1.2 },
    pointReadP50: { 'store-in-thread': 0.2, 'store-worker': 0.5, dexie: 0.4 },
    fullRead: { 'raw-one-tx': 40, dexie: 80, 'store-worker': 50 },
    recentWindow1k: { 'store-worker': 1 },
    recentWindow100k: { 'store-worker': 1.2 },
    listing1k: { 'store-worker': 2 },
    listing10k: { 'store-worker': 5 },
  });
  const ratios = computeRatios(figures);

  it('names each ratio of the issue and divides the product by the reference', () => {
    expect(ratios).toMatchObject({
      concurrentAppendVsLimit: 1.5,
      concurrentAppendVsNaive: 0.075,
      sequentialP50VsRawTx: 2.4,
      appendWorkerVsInThread: 2.4,
      fullReadVsGetAll: 1.25,
      listing10kMs: 5,
      listingGrowth: 2.5,
      recentWindow100kMs: 1.2,
      getSessionWorkerVsInThread: 2.5,
    });
    expect(ratios.recentWindowGrowth).toBeCloseTo(1.2, 10);
    expect(ratios.fullReadVsDexie).toBe(50 / 80);
    expect(ratios.pointReadP50VsDexie).toBe(1.25);
  });

  it('divides within each repetition and reports the median of those quotients with their spread', () => {
    // A burst of load in repetition 2 slows both contenders: per-repetition quotients stay at 2.
    const bursty = summarizeFigures({
      concurrentAwaited: { 'raw-one-tx': { ms: [100, 1000, 110] }, 'store-worker': { ms: [200, 2000, 220] } },
    });
    const summary = computeRatioSummaries(bursty).concurrentAwaitedVsLimit;
    expect(summary?.median).toBeCloseTo(2, 10);
    expect(summary?.spread).toBeCloseTo(0, 10);
    // The quotient of the medians would be 220 / 110 = 2 here too; skewed bursts tell them apart.
    const skewed = summarizeFigures({
      concurrentAwaited: { 'raw-one-tx': { ms: [100, 300, 400] }, 'store-worker': { ms: [250, 600, 1000] } },
    });
    expect(computeRatios(skewed).concurrentAwaitedVsLimit).toBeCloseTo(2.5, 10);
  });

  it('pairs a slow reference measured in the first repetitions only with the same repetitions of the store', () => {
    const slow = summarizeFigures({
      concurrentAppend: {
        'raw-tx-per-event': { ms: [1000, 1200] },
        'store-worker': { ms: [100, 300, 120, 110, 105] },
      },
    });
    // 100 / 1000 and 300 / 1200: the store's later repetitions have no partner.
    expect(computeRatios(slow).concurrentAppendVsNaive).toBeCloseTo((0.1 + 0.25) / 2, 10);
  });

  it('falls back to the quotient of medians when a reference repetition measured nothing', () => {
    const unpaired = summarizeFigures({
      fullRead: { 'raw-one-tx': { ms: [0, 20, 30] }, 'store-worker': { ms: [30, 30, 30] } },
    });
    expect(computeRatios(unpaired).fullReadVsGetAll).toBe(1.5);
  });

  it('runs the slow pairs in their first repetitions after the warm-up only, the short reads in extra ones, the rest in every repetition', () => {
    const runs = (workload: WorkloadId, contender: ContenderId) =>
      [0, 1, 2, 3, 4, 5].filter((rep) => runsIn(workload, contender, rep, 1, FULL));
    expect(runs('concurrentAwaited', 'dexie')).toEqual([1]);
    expect(runs('concurrentCreate', 'raw-tx-per-event')).toEqual([1, 2]);
    expect(runs('concurrentAwaited', 'store-worker')).toEqual([0, 1, 2, 3, 4, 5]);
    expect(runs('sequentialAppend', 'dexie')).toEqual([0, 1, 2, 3, 4, 5]);
    // The short reads go on alone after the others' last repetition.
    const all = Array.from({ length: repetitionsOf(FULL, 1) }, (_, rep) => rep);
    expect(all.filter((rep) => runsIn('pointRead', 'dexie', rep, 1, FULL))).toEqual(all);
    expect(all.filter((rep) => runsIn('concurrentAwaited', 'store-worker', rep, 1, FULL))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(all.length).toBe(1 + FULL.shortRepetitions);
    // A quick run (one repetition, no warm-up) still measures each slow pair once.
    expect([0].filter((rep) => runsIn('concurrentAppend', 'dexie', rep, 0, { ...FULL, repetitions: 1 }))).toEqual([0]);
  });

  it('warms up with a quarter of the writes and the fixtures the reads look for', () => {
    const warm = warmupSizes(FULL);
    expect(warm.concurrentSessions * warm.concurrentEvents).toBe(
      (FULL.concurrentSessions * FULL.concurrentEvents) / 16,
    );
    expect(warm.sequentialAppends).toBe(FULL.sequentialAppends / 4);
    const { concurrentSessions, concurrentEvents, concurrentCreates, sequentialAppends, ...reads } = warm;
    expect(FULL).toMatchObject(reads);
  });

  it('names a ratio against Dexie after its figure', () => {
    expect(dexieRatioName('fullRead')).toBe('fullReadVsDexie');
    expect(FIGURES.map((f) => dexieRatioName(f.name))).toContain('concurrentAppendVsDexie');
  });

  it('leaves out a ratio whose figures were not measured', () => {
    expect(ratios).not.toHaveProperty('coldStartVsDexie');
    expect(ratios).not.toHaveProperty('listing10kVsDexie');
  });
});

describe('targets', () => {
  const verdict = (ratios: Record<string, number>, name: string) =>
    evaluateTargets(ratios).find((t) => t.ratio === name);

  it('meets a "within" target at its limit and misses it above', () => {
    expect(verdict({ concurrentAppendVsLimit: 1.5 }, 'concurrentAppendVsLimit')?.met).toBe(true);
    expect(verdict({ concurrentAppendVsLimit: 1.51 }, 'concurrentAppendVsLimit')?.met).toBe(false);
    expect(verdict({ concurrentAwaitedVsLimit: 2.5 }, 'concurrentAwaitedVsLimit')?.met).toBe(true);
    expect(verdict({ concurrentAwaitedVsNaive: 0.26 }, 'concurrentAwaitedVsNaive')?.met).toBe(false);
    expect(verdict({ sequentialP50InThreadVsRawTx: 1.9 }, 'sequentialP50InThreadVsRawTx')?.met).toBe(false);
    expect(verdict({ concurrentAppendVsNaive: 0.25 }, 'concurrentAppendVsNaive')?.met).toBe(false);
  });

  it('needs "under" and "faster than" targets strictly below their limit', () => {
    expect(verdict({ listing10kMs: 20 }, 'listing10kMs')?.met).toBe(false);
    expect(verdict({ listing10kMs: 19.9 }, 'listing10kMs')?.met).toBe(true);
    expect(verdict({ fullReadVsDexie: 1 }, 'fullReadVsDexie')?.met).toBe(false);
  });

  it('reports an unmeasured target as missed, with no figure', () => {
    expect(verdict({}, 'fullReadVsGetAll')).toMatchObject({ met: false, measured: null, spread: null });
  });

  it('carries the spread of the per-repetition ratios into the verdict and its text', () => {
    const summaries = { fullReadVsGetAll: summarize([1, 1.1, 1.3]) };
    const [target] = evaluateTargets({ fullReadVsGetAll: 1.1 }, summaries).filter(
      (t) => t.ratio === 'fullReadVsGetAll',
    );
    expect(target?.spread).toBeCloseTo(0.3 / 1.1, 10);
    expect(formatTargets(target ? [target] : [])).toContain('1.100 ±27%');
  });

  it('covers every figure against Dexie', () => {
    const names = evaluateTargets({}).map((t) => t.ratio);
    for (const f of FIGURES) expect(names).toContain(`${f.name}VsDexie`);
  });
});

describe('report table', () => {
  it('shows medians with their spread, and a dash where a contender did not run', () => {
    const figures = summarizeFigures({ fullRead: { 'raw-one-tx': { ms: [40, 44, 36] } } });
    const text = formatTable(figures, FULL);
    const row = text.split('\n').find((line) => line.startsWith('full read, 10,000 events'));
    expect(row).toContain('40.0 ±20%');
    expect(row).toContain('—');
  });

  it('formats milliseconds to about three significant digits', () => {
    expect([formatMs(1234.5), formatMs(12.345), formatMs(1.2345), formatMs(0.12345)]).toEqual([
      '1235',
      '12.3',
      '1.23',
      '0.123',
    ]);
  });
});

describe('record generator', () => {
  it('makes events of about 500 bytes of JSON, the same on every call', () => {
    for (const [s, seq] of [
      [0, 0],
      [99, 99],
      [3, 99_999],
    ] as const) {
      const size = JSON.stringify(makeEvent(s, seq, 1_700_000_000_000)).length;
      expect(size).toBeGreaterThan(450);
      expect(size).toBeLessThan(560);
    }
    expect(makeEvent(7, 3, 0)).toEqual(makeEvent(7, 3, 0));
    expect(makeEvent(7, 3, 0).content).not.toEqual(makeEvent(7, 4, 0).content);
  });

  it('gives the state that applying every delta in order gives', () => {
    const applied: Record<string, unknown> = {};
    for (const e of makeEvents(4, 0, 37, 10)) Object.assign(applied, e.actions?.stateDelta);
    expect(stateAfter(4, 37, 10)).toEqual(applied);
  });
});

describe('chart', () => {
  const series = [
    { id: 'a', label: 'A', color: '#111' },
    { id: 'b', label: 'B & <co>', color: '#222' },
  ];
  const svg = renderChart('t', series, [
    { label: 'fast <read>', values: { a: 0.5, b: 5 } },
    { label: 'slow', values: { a: 500 } },
  ]);
  const bars = [...svg.matchAll(/<rect x="(\d+)" y="[\d.]+" width="([\d.]+)" height="9"/g)].map((m) => Number(m[2]));

  it('draws one bar per measured value, longer for slower, on a log scale', () => {
    expect(bars).toHaveLength(3);
    const [fast, slower, slowest] = bars as [number, number, number];
    expect(slower).toBeGreaterThan(fast);
    expect(slowest).toBeGreaterThan(slower);
    // 0.5 -> 5 -> 500 ms: one decade, then two: equal steps per decade.
    expect(slowest - slower).toBeCloseTo(2 * (slower - fast), 0);
  });

  it('labels decades in ms below a second and in s above', () => {
    expect([-2, -1, 0, 2, 3, 5].map(decadeLabel)).toEqual(['0.01 ms', '0.1 ms', '1 ms', '100 ms', '1 s', '100 s']);
  });

  it('escapes every label and keeps its elements balanced', () => {
    expect(svg).toContain('fast &#60;read&#62;');
    expect(svg).toContain('B &#38; &#60;co&#62;');
    expect(svg).not.toContain('<read>');
    expect(svg.match(/<text/g)?.length).toBe(svg.match(/<\/text>/g)?.length);
    expect(svg.trim().startsWith('<svg')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
  });
});

describe('command line', () => {
  it('narrows a run to the named workloads and contenders and reports only what it measured', () => {
    const options = parseArgs([
      '--only',
      'concurrentAwaited',
      '--contenders',
      'raw-one-tx,store-worker',
      '--reps',
      '3',
    ]);
    expect(options).toMatchObject({ reps: 3, only: ['concurrentAwaited'], contenders: ['raw-one-tx', 'store-worker'] });
    const s = selection(options);
    expect(s.chosen('concurrentAwaited')).toBe(true);
    expect(s.chosen('fullRead')).toBe(false);
    expect(s.taking(['raw-one-tx', 'raw-tx-per-event', 'dexie', 'store-worker'])).toEqual([
      'raw-one-tx',
      'store-worker',
    ]);
    expect(s.targeted).toBe(true);
  });

  it("leaves Dexie's 10,000-write workloads out unless --dexie-writes or --contenders asks for them", () => {
    const writers = ['raw-one-tx', 'dexie', 'store-worker'] as const;
    const full = selection(parseArgs([]));
    expect(full.taking(writers, 'concurrentAwaited')).toEqual(['raw-one-tx', 'store-worker']);
    expect(full.taking(writers, 'sequentialAppend')).toEqual(writers);
    expect(full.taking(writers, 'coldStart')).toEqual(writers);
    expect(full.optedOut('concurrentCreate', 'dexie')).toBe(true);
    expect(full.optedOut('concurrentCreate', 'raw-tx-per-event')).toBe(false);
    expect(selection(parseArgs(['--dexie-writes'])).taking(writers, 'concurrentAppend')).toEqual(writers);
    const named = selection(parseArgs(['--contenders', 'dexie,store-worker']));
    expect(named.taking(writers, 'concurrentAppend')).toEqual(['dexie', 'store-worker']);
  });

  it('runs in Chromium unless --browser names another engine', () => {
    expect(parseArgs([]).browser).toBe('chromium');
    expect(parseArgs(['--browser', 'firefox']).browser).toBe('firefox');
    expect(() => parseArgs(['--browser', 'webkit'])).toThrow(/webkit/);
    expect(() => parseArgs(['--browser', 'chromium,firefox'])).toThrow(/one engine/);
  });

  it('builds the read fixtures unless only write workloads run', () => {
    expect(selection(parseArgs(['--only', 'concurrentAppend,sequentialAppend'])).needsFixtures).toBe(false);
    expect(selection(parseArgs(['--only', 'concurrentAppend,fullRead'])).needsFixtures).toBe(true);
    const full = selection(parseArgs([]));
    expect([full.needsFixtures, full.targeted, full.chosen('coldStart'), full.taking(['dexie'])]).toEqual([
      true,
      false,
      true,
      ['dexie'],
    ]);
  });

  it('rejects unknown workloads, contenders and arguments, and an empty list', () => {
    expect(() => parseArgs(['--only', 'fullRaed'])).toThrow(/fullRaed/);
    expect(() => parseArgs(['--contenders', 'sqlite'])).toThrow(/sqlite/);
    expect(() => parseArgs(['--only', ''])).toThrow(/--only/);
    expect(() => parseArgs(['--fast'])).toThrow(/unknown argument/);
    expect(() => parseArgs(['--reps', '0'])).toThrow(/--reps/);
  });
});

describe('the streaming bench plan', () => {
  it('streams every token of the reply once, in chunks of 1 to 3 tokens, the same in every run', () => {
    const chunks = replyChunks(STREAMING_FULL);
    expect(chunks.join('')).toBe(replyTokens(STREAMING_FULL.replyTokens).join(''));
    expect(chunks).toEqual(replyChunks(STREAMING_FULL));
    const tokens = chunks.map((c) => c.split(' ').filter(Boolean).length);
    expect(Math.min(...tokens)).toBe(1);
    expect(Math.max(...tokens)).toBe(3);
  });

  it('times each append until the reader first holds a text at least as long', () => {
    const written = [
      { at: 100, length: 3 },
      { at: 120, length: 7 },
      { at: 140, length: 9 },
      { at: 160, length: 12 },
    ];
    const seen = [
      { at: 95, length: 0 },
      { at: 150, length: 7 },
      { at: 170, length: 9 },
    ];
    // The last append was never seen: the draft was finished first.
    expect(lagsOf(written, seen)).toEqual({ lags: [50, 30, 30], unseen: 1 });
  });

  it('counts a sight the clocks put before its append as no lag', () => {
    expect(lagsOf([{ at: 100, length: 5 }], [{ at: 99, length: 5 }])).toEqual({ lags: [0], unseen: 0 });
  });
});
