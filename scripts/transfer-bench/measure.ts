/**
 * One measurement: import a generated file into an empty store, then export it
 * back, timing the phases and the longest stall of the calling thread's event
 * loop (what a progress bar on the page would suffer).
 */
import { exportSessions, importSessions, type TransferSource, type TransferTarget } from '../../src/index.js';
import { prepareImport } from '../../src/sessions/import-options.js';
import { makeSessions } from './data.js';

export interface Figures {
  sessions: number;
  events: number;
  fileMB: number;
  /** Reading the Blob and parsing it, until `totalSessions` is known. */
  readParseMs: number;
  /** Validating every session on the calling side (measured apart, on the same data). */
  validateMs: number;
  /**
   * From the parse to the first write report: validation on both sides, the
   * trip to the store, and issuing every request of the transaction.
   */
  toFirstWriteMs: number;
  /** From the first write report to the commit. */
  writeMs: number;
  importMs: number;
  exportMs: number;
  /** Longest gap between 10 ms timer ticks on the calling thread during the import / export. */
  importStallMs: number;
  exportStallMs: number;
  /**
   * Live heap at the export's peak over its start, after a garbage collection at
   * each sample (a second, untimed export; needs an exposed `gc`).
   */
  exportHeapGrowthMB: number | undefined;
}

/** Exports again, untimed, sampling the live heap every 100 sessions. */
async function exportHeapGrowth(
  store: TransferSource,
  heapUsed: () => number | undefined,
): Promise<number | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc || heapUsed() === undefined) return undefined;
  const live = (): number => {
    gc();
    return heapUsed() ?? 0;
  };
  const start = live();
  let peak = start;
  const reader = exportSessions(store, {
    onProgress: (p) => {
      if (p.sessions % 100 === 50) peak = Math.max(peak, live());
    },
  }).getReader();
  while (!(await reader.read()).done) {}
  return (peak - start) / 1e6;
}

function watchStalls(): () => number {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(worst, performance.now() - last);
  };
}

export async function measureTransfer(
  store: TransferSource & TransferTarget,
  count: number,
  eventsEach: number,
  heapUsed: () => number | undefined,
): Promise<Figures> {
  const text = JSON.stringify(makeSessions(count, eventsEach));
  const file = new Blob([text], { type: 'application/json' });
  const validateStarted = performance.now();
  await prepareImport(JSON.parse(text));
  const validateMs = performance.now() - validateStarted;

  let parsedAt = 0;
  let firstWriteAt = 0;
  const stopImport = watchStalls();
  const started = performance.now();
  await importSessions(store, file, {
    onProgress: (p) => {
      if (!parsedAt && p.totalSessions !== undefined) parsedAt = performance.now();
      if (!firstWriteAt && p.sessions > 0) firstWriteAt = performance.now();
    },
  });
  const imported = performance.now();
  const importStallMs = stopImport();

  const stopExport = watchStalls();
  let bytes = 0;
  const reader = exportSessions(store).getReader();
  const exportStarted = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  const exportMs = performance.now() - exportStarted;
  const exportStallMs = stopExport();
  if (bytes < file.size) throw new Error(`export wrote ${bytes} bytes, less than the ${file.size} imported`);
  const exportHeapGrowthMB = await exportHeapGrowth(store, heapUsed);
  return {
    sessions: count,
    events: count * eventsEach,
    fileMB: file.size / 1e6,
    readParseMs: parsedAt - started,
    validateMs,
    toFirstWriteMs: firstWriteAt - parsedAt,
    writeMs: imported - firstWriteAt,
    importMs: imported - started,
    exportMs,
    importStallMs,
    exportStallMs,
    exportHeapGrowthMB,
  };
}
