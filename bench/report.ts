/**
 * From raw measurements to what is reported: per-figure summaries, the named
 * ratios (the store through its worker over each reference, medians; below 1
 * means the store is faster), the issue's targets as met/missed, and the text
 * table. Pure, so it is unit-tested.
 */
import type { ContenderId } from './contender.js';
import { CONTENDER_LABELS, CONTENDERS, FIGURES, type Sizes, type WorkloadId } from './plan.js';
import { type Summary, summarize } from './stats.js';

/** Per-repetition values: `measured[workload][contender][metric]`. */
export type Measured = Partial<Record<WorkloadId, Partial<Record<ContenderId, Record<string, number[]>>>>>;

/** `figures[figureName][contender]`. */
export type FigureTable = Record<string, Partial<Record<ContenderId, Summary>>>;

export function summarizeFigures(measured: Measured): FigureTable {
  const out: FigureTable = {};
  for (const figure of FIGURES) {
    const row: Partial<Record<ContenderId, Summary>> = {};
    for (const contender of CONTENDERS) {
      const values = measured[figure.workload]?.[contender]?.[figure.metric];
      if (values && values.length > 0) row[contender] = summarize(values);
    }
    out[figure.name] = row;
  }
  return out;
}

const PRODUCT: ContenderId = 'store-worker';

/** The name of the ratio of the product over Dexie for a figure: `fullRead` -> `fullReadVsDexie`. */
export const dexieRatioName = (figure: string): string => `${figure}VsDexie`;

/**
 * The ratio of two figures, taken per repetition and summarized: contenders
 * run interleaved within a repetition, so a burst of load from elsewhere
 * inflates both sides of one quotient instead of one side of a median. A slow
 * reference measured in the first repetitions only (`SLOW`) is paired with
 * those. Falls back to the quotient of medians when the repetitions do not pair up.
 */
function quotient(a: Summary | undefined, b: Summary | undefined): Summary | undefined {
  if (a === undefined || b === undefined) return undefined;
  const n = Math.min(a.values.length, b.values.length);
  if (n > 0 && b.values.slice(0, n).every((v) => v > 0)) {
    return summarize(a.values.slice(0, n).map((v, i) => v / (b.values[i] as number)));
  }
  return b.median === 0 ? undefined : summarize([a.median / b.median]);
}

/** Every named ratio that the figures allow, summarized over repetitions; names are stable so runs can be compared. */
export function computeRatioSummaries(figures: FigureTable): Record<string, Summary> {
  const p = (figure: string): Summary | undefined => figures[figure]?.[PRODUCT];
  const of = (figure: string, contender: ContenderId): Summary | undefined => figures[figure]?.[contender];
  const named: Record<string, Summary | undefined> = {
    concurrentAppendVsLimit: quotient(p('concurrentAppend'), of('concurrentAppend', 'raw-one-tx')),
    concurrentAppendVsNaive: quotient(p('concurrentAppend'), of('concurrentAppend', 'raw-tx-per-event')),
    concurrentAwaitedVsLimit: quotient(p('concurrentAwaited'), of('concurrentAwaited', 'raw-one-tx')),
    concurrentAwaitedVsNaive: quotient(p('concurrentAwaited'), of('concurrentAwaited', 'raw-tx-per-event')),
    concurrentCreateVsLimit: quotient(p('concurrentCreate'), of('concurrentCreate', 'raw-one-tx')),
    sequentialP50VsRawTx: quotient(p('sequentialP50'), of('sequentialP50', 'raw-one-tx')),
    sequentialP50InThreadVsRawTx: quotient(of('sequentialP50', 'store-in-thread'), of('sequentialP50', 'raw-one-tx')),
    fullReadVsGetAll: quotient(p('fullRead'), of('fullRead', 'raw-one-tx')),
    recentWindowGrowth: quotient(p('recentWindow100k'), p('recentWindow1k')),
    recentWindow100kMs: p('recentWindow100k'),
    listing10kMs: p('listing10k'),
    listingGrowth: quotient(p('listing10k'), p('listing1k')),
    appendWorkerVsInThread: quotient(p('sequentialP50'), of('sequentialP50', 'store-in-thread')),
    getSessionWorkerVsInThread: quotient(p('pointReadP50'), of('pointReadP50', 'store-in-thread')),
  };
  for (const figure of FIGURES) named[dexieRatioName(figure.name)] = quotient(p(figure.name), of(figure.name, 'dexie'));
  const out: Record<string, Summary> = {};
  for (const [name, value] of Object.entries(named)) if (value !== undefined) out[name] = value;
  return out;
}

/** The median of each named ratio over the repetitions. */
export function computeRatios(figures: FigureTable): Record<string, number> {
  return Object.fromEntries(Object.entries(computeRatioSummaries(figures)).map(([name, s]) => [name, s.median]));
}

export interface TargetResult {
  ratio: string;
  description: string;
  /** The target holds when `measured <= threshold` (`<` for "under" and "faster than"); all ratios are lower-is-better. */
  threshold: number;
  /** Not one of the issue's targets: the same limit applied to a second reading of a workload, for information. */
  informative: boolean;
  measured: number | null;
  /** How far the per-repetition ratios spread, `(max - min) / median`; null when not measured. */
  spread: number | null;
  met: boolean;
}

const TARGETS: readonly {
  ratio: string;
  threshold: number;
  description: string;
  strict?: boolean;
  informative?: boolean;
}[] = [
  // Issue 11's targets (the earlier ones of issue 5 were looser on appends and reads).
  { ratio: 'concurrentAppendVsLimit', threshold: 1.5, description: 'concurrent appends within 1.5x of raw, one tx' },
  {
    ratio: 'concurrentAppendVsNaive',
    threshold: 0.2,
    description: 'concurrent appends at least 5x faster than raw, tx per event',
  },
  {
    ratio: 'concurrentAwaitedVsLimit',
    threshold: 2.5,
    description: 'awaited concurrent appends (agents) within 2.5x of raw, one tx',
  },
  {
    ratio: 'concurrentAwaitedVsNaive',
    threshold: 0.25,
    description: 'awaited concurrent appends at least 4x faster than raw, tx per event',
  },
  {
    ratio: 'concurrentCreateVsLimit',
    threshold: 3,
    description: 'concurrent createSession within 3x of raw puts in one tx',
  },
  {
    ratio: 'sequentialP50VsRawTx',
    threshold: 2.5,
    description: 'sequential append p50 through the worker within 2.5x of a single-put tx',
  },
  {
    ratio: 'sequentialP50InThreadVsRawTx',
    threshold: 1.8,
    description: 'sequential append p50 in-thread within 1.8x of a single-put tx',
  },
  { ratio: 'fullReadVsGetAll', threshold: 1.2, description: 'full read within 1.2x of a raw getAll' },
  { ratio: 'recentWindowGrowth', threshold: 1.5, description: 'recent window on 100,000 events within 1.5x of 1,000' },
  {
    ratio: 'recentWindow100kMs',
    threshold: 5,
    strict: true,
    description: 'recent window on 100,000 events under 5 ms',
  },
  { ratio: 'listing10kMs', threshold: 20, strict: true, description: 'listing over 10,000 sessions under 20 ms' },
  { ratio: 'listingGrowth', threshold: 2, description: 'listing over 10,000 sessions within 2x of 1,000' },
];

export function evaluateTargets(
  ratios: Record<string, number>,
  summaries: Record<string, Summary> = {},
): TargetResult[] {
  const all = [
    ...TARGETS,
    ...FIGURES.map((f) => ({
      ratio: dexieRatioName(f.name),
      threshold: 1,
      strict: true,
      informative: false,
      description: `faster than Dexie: ${f.name}`,
    })),
  ];
  return all.map(({ ratio, threshold, description, strict, informative }) => {
    const measured = ratios[ratio];
    const met = measured !== undefined && (strict ? measured < threshold : measured <= threshold);
    const spread = summaries[ratio]?.spread ?? null;
    return {
      ratio,
      description,
      threshold,
      measured: measured ?? null,
      spread,
      met,
      informative: informative === true,
    };
  });
}

/** Milliseconds with about three significant digits. */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

function pad(cells: string[][]): string {
  const widths = cells[0]?.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length))) ?? [];
  return cells
    .map((row) =>
      row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

/** The figures as a text table: median ms and spread (max-min over median) per contender. */
export function formatTable(figures: FigureTable, sizes: Sizes): string {
  const header = ['ms (median ±spread)', ...CONTENDERS.map((c) => CONTENDER_LABELS[c])];
  const rows = FIGURES.map((figure) => [
    figure.label(sizes),
    ...CONTENDERS.map((c) => {
      const s = figures[figure.name]?.[c];
      return s ? `${formatMs(s.median)} ±${Math.round(s.spread * 100)}%` : '—';
    }),
  ]);
  return pad([header, ...rows]);
}

export function formatTargets(targets: TargetResult[]): string {
  return pad([
    ['target', 'measured (median of repetitions)', 'limit', ''],
    ...targets.map((t) => [
      t.description,
      t.measured === null
        ? 'n/a'
        : `${t.measured.toFixed(t.ratio.endsWith('Ms') ? 2 : 3)}${t.spread === null ? '' : ` ±${Math.round(t.spread * 100)}%`}`,
      `${t.ratio.endsWith('Ms') || t.ratio.endsWith('VsDexie') ? '<' : '<='} ${t.threshold}`,
      t.met ? 'met' : 'MISSED',
    ]),
  ]);
}
