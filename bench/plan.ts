/**
 * What the benchmark runs: sizes (full and quick), the workloads, which
 * contenders take part in each, and the figures reported. Shared by the page
 * and the driver; no DOM, no Node.
 */
import type { ContenderId } from './contender.js';

export interface Sizes {
  /** Repetitions measured after the warm-up. */
  repetitions: number;
  /**
   * Repetitions of the short workloads (`SHORT`, under a second each): more
   * than `repetitions`, the extra ones running those alone, because their
   * medians move most with the load from elsewhere.
   */
  shortRepetitions: number;
  warmup: boolean;
  concurrentSessions: number;
  concurrentEvents: number;
  /** Sessions created at once, each with a small state. */
  concurrentCreates: number;
  sequentialAppends: number;
  pointReadEvents: number;
  pointReads: number;
  fullReadEvents: number;
  fullReadRepeats: number;
  recentSmallEvents: number;
  recentLargeEvents: number;
  recentWindow: number;
  recentRepeats: number;
  listingSmallSessions: number;
  listingLargeSessions: number;
  listingLimit: number;
  listingRepeats: number;
  coldStartEvents: number;
  /** Idle time before each cold start, so the browser releases the database files. */
  coldStartIdleMs: number;
}

export const FULL: Sizes = {
  repetitions: 5,
  shortRepetitions: 15,
  warmup: true,
  concurrentSessions: 100,
  concurrentEvents: 100,
  concurrentCreates: 10_000,
  sequentialAppends: 1000,
  pointReadEvents: 10,
  pointReads: 200,
  fullReadEvents: 10_000,
  fullReadRepeats: 5,
  recentSmallEvents: 1000,
  recentLargeEvents: 100_000,
  recentWindow: 50,
  recentRepeats: 20,
  listingSmallSessions: 1000,
  listingLargeSessions: 10_000,
  listingLimit: 50,
  listingRepeats: 10,
  coldStartEvents: 100,
  coldStartIdleMs: 3000,
};

/** A smoke run: every path once, tiny sizes, no warm-up. Its figures mean nothing. */
export const QUICK: Sizes = {
  repetitions: 1,
  shortRepetitions: 1,
  warmup: false,
  concurrentSessions: 4,
  concurrentEvents: 5,
  concurrentCreates: 20,
  sequentialAppends: 10,
  pointReadEvents: 3,
  pointReads: 5,
  fullReadEvents: 50,
  fullReadRepeats: 1,
  recentSmallEvents: 20,
  recentLargeEvents: 200,
  recentWindow: 5,
  recentRepeats: 2,
  listingSmallSessions: 10,
  listingLargeSessions: 60,
  listingLimit: 5,
  listingRepeats: 2,
  coldStartEvents: 5,
  coldStartIdleMs: 0,
};

/**
 * The warm-up's sizes: every workload runs (the page's code gets compiled, the
 * files cached) with a quarter of the writes. Read sizes stay: the read
 * workloads find their fixtures by them.
 */
export function warmupSizes(s: Sizes): Sizes {
  const quarter = (n: number): number => Math.max(1, Math.ceil(n / 4));
  return {
    ...s,
    concurrentSessions: quarter(s.concurrentSessions),
    concurrentEvents: quarter(s.concurrentEvents),
    concurrentCreates: quarter(s.concurrentCreates),
    sequentialAppends: quarter(s.sequentialAppends),
  };
}

export type WorkloadId =
  | 'concurrentAppend'
  | 'concurrentAwaited'
  | 'concurrentCreate'
  | 'sequentialAppend'
  | 'pointRead'
  | 'fullRead'
  | 'recentWindow1k'
  | 'recentWindow100k'
  | 'listing1k'
  | 'listing10k'
  | 'coldStart';

export const CONTENDERS: readonly ContenderId[] = [
  'raw-one-tx',
  'raw-tx-per-event',
  'dexie',
  'store-in-thread',
  'store-worker',
];

export const CONTENDER_LABELS: Record<ContenderId, string> = {
  'raw-one-tx': '1 raw, one tx',
  'raw-tx-per-event': '2 raw, tx/event',
  dexie: '3 Dexie',
  'store-in-thread': '4 store in-thread',
  'store-worker': '5 store via worker',
};

const WRITES_10K: readonly WorkloadId[] = ['concurrentAppend', 'concurrentAwaited', 'concurrentCreate'];

/**
 * Workloads a contender runs tens of seconds per repetition (Dexie and a
 * transaction per event writing 10,000 events or sessions): measured in the
 * first `repetitions` only, each paired with the same repetitions of the store,
 * and never in the warm-up (they time IndexedDB's cost per transaction, which
 * warming the page's code does not change). Dexie's are a reference no target
 * is near (the store is 7-27x faster); the ratios against a transaction per event
 * are targets, so they get two.
 */
export const SLOW: Partial<Record<ContenderId, { workloads: readonly WorkloadId[]; repetitions: number }>> = {
  dexie: { workloads: WRITES_10K, repetitions: 1 },
  'raw-tx-per-event': { workloads: WRITES_10K, repetitions: 2 },
  // The targets are the worker's; in-thread, these 10-25 s workloads only show what the worker adds.
  'store-in-thread': { workloads: WRITES_10K, repetitions: 2 },
};

/**
 * Pairs a full run leaves out unless asked for (`--dexie-writes`, or the
 * contender named in `--contenders`): Dexie's 10,000-write workloads took 3 of a
 * full run's 13 minutes for a reference no target is near.
 */
export const OPT_IN: Partial<Record<ContenderId, readonly WorkloadId[]>> = { dexie: WRITES_10K };

/** Workloads of under a second per contender: measured `shortRepetitions` times. */
export const SHORT: readonly WorkloadId[] = [
  'pointRead',
  'recentWindow1k',
  'recentWindow100k',
  'listing1k',
  'listing10k',
];

/** Repetitions in a run of `sizes`, warm-ups included. */
export const repetitionsOf = (sizes: Sizes, warmups: number): number =>
  warmups + Math.max(sizes.repetitions, sizes.shortRepetitions);

/** Whether `contender` runs `workload` in repetition `rep` (counted from 0, warm-ups first). */
export function runsIn(
  workload: WorkloadId,
  contender: ContenderId,
  rep: number,
  warmups: number,
  sizes: Sizes,
): boolean {
  if (rep >= warmups + sizes.repetitions) {
    return SHORT.includes(workload) && rep < warmups + sizes.shortRepetitions;
  }
  const slow = SLOW[contender];
  if (!slow?.workloads.includes(workload)) return true;
  return rep >= warmups && rep < warmups + Math.min(slow.repetitions, sizes.repetitions);
}

/**
 * Each contender's database. Contenders 1 and 2 differ only in how they write,
 * 4 and 5 only in where the store runs: each pair shares one database, so its
 * read fixtures are built once. Write workloads name their sessions per contender.
 */
export const DATABASES: Record<ContenderId, string> = {
  'raw-one-tx': 'bench-raw',
  'raw-tx-per-event': 'bench-raw',
  dexie: 'bench-dexie',
  'store-in-thread': 'bench-store',
  'store-worker': 'bench-store',
};

/** Contender 2 differs from 1 only in how it writes: reads would run the same code twice. */
export const READERS: readonly ContenderId[] = ['raw-one-tx', 'dexie', 'store-in-thread', 'store-worker'];

export const WORKLOADS: readonly { id: WorkloadId; contenders: readonly ContenderId[] }[] = [
  { id: 'concurrentAppend', contenders: CONTENDERS },
  { id: 'concurrentAwaited', contenders: CONTENDERS },
  { id: 'concurrentCreate', contenders: CONTENDERS },
  { id: 'sequentialAppend', contenders: CONTENDERS },
  { id: 'pointRead', contenders: READERS },
  { id: 'fullRead', contenders: READERS },
  { id: 'recentWindow1k', contenders: READERS },
  { id: 'recentWindow100k', contenders: READERS },
  { id: 'listing1k', contenders: READERS },
  { id: 'listing10k', contenders: READERS },
  { id: 'coldStart', contenders: READERS },
];

/** One reported number: a metric of a workload, with a stable name for ratios. */
export interface Figure {
  name: string;
  workload: WorkloadId;
  metric: string;
  label: (s: Sizes) => string;
}

const n = (x: number): string => x.toLocaleString('en-US');

export const FIGURES: readonly Figure[] = [
  {
    name: 'concurrentAppend',
    workload: 'concurrentAppend',
    metric: 'ms',
    label: (s) => `concurrent appends ${s.concurrentSessions}x${s.concurrentEvents}, all issued at once`,
  },
  {
    name: 'concurrentAwaited',
    workload: 'concurrentAwaited',
    metric: 'ms',
    label: (s) => `concurrent appends ${s.concurrentSessions}x${s.concurrentEvents}, each awaited (agents)`,
  },
  {
    name: 'concurrentCreate',
    workload: 'concurrentCreate',
    metric: 'ms',
    label: (s) => `${n(s.concurrentCreates)} createSession at once`,
  },
  {
    name: 'sequentialP50',
    workload: 'sequentialAppend',
    metric: 'p50',
    label: (s) => `sequential append p50 (${n(s.sequentialAppends)} awaited)`,
  },
  {
    name: 'sequentialP99',
    workload: 'sequentialAppend',
    metric: 'p99',
    label: (s) => `sequential append p99 (${n(s.sequentialAppends)} awaited)`,
  },
  {
    name: 'pointReadP50',
    workload: 'pointRead',
    metric: 'p50',
    label: (s) => `getSession p50, ${s.pointReadEvents}-event session`,
  },
  { name: 'fullRead', workload: 'fullRead', metric: 'ms', label: (s) => `full read, ${n(s.fullReadEvents)} events` },
  {
    name: 'recentWindow1k',
    workload: 'recentWindow1k',
    metric: 'ms',
    label: (s) => `recent ${s.recentWindow} of ${n(s.recentSmallEvents)} events`,
  },
  {
    name: 'recentWindow100k',
    workload: 'recentWindow100k',
    metric: 'ms',
    label: (s) => `recent ${s.recentWindow} of ${n(s.recentLargeEvents)} events`,
  },
  {
    name: 'listing1k',
    workload: 'listing1k',
    metric: 'ms',
    label: (s) => `list ${s.listingLimit} desc of ${n(s.listingSmallSessions)} sessions`,
  },
  {
    name: 'listing10k',
    workload: 'listing10k',
    metric: 'ms',
    label: (s) => `list ${s.listingLimit} desc of ${n(s.listingLargeSessions)} sessions`,
  },
  {
    name: 'coldStart',
    workload: 'coldStart',
    metric: 'ms',
    label: (s) => `cold start: open + read ${s.coldStartEvents}-event session`,
  },
];
