/**
 * The page side of an import: every session is validated before anything is
 * sent, in time slices so that a large import keeps the page responsive and
 * can be aborted between slices.
 */
import type { ImportBatch } from '../protocol.js';
import { importBatchSchema, validate } from '../schema.js';
import type { ConflictPolicy } from '../types.js';
import { ImportChecker } from './validate.js';

/** Options of a store's `importSessions`. */
export interface SessionImportOptions {
  /** Default `'error'`. */
  onConflict?: ConflictPolicy;
  /** Honoured until the write starts; the write itself is one transaction that completes. */
  signal?: AbortSignal;
  /** How many sessions are written so far, while the one transaction runs; below the total until it commits. */
  onProgress?: (processed: number) => void;
}

/**
 * `onProgress` as the engine may call it while its transaction runs: a failing
 * progress listener is reported, and must not fail the import.
 */
export function guardedProgress(
  onProgress: ((processed: number) => void) | undefined,
): ((processed: number) => void) | undefined {
  return (
    onProgress &&
    ((processed: number) => {
      try {
        onProgress(processed);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    })
  );
}

/** How long validation runs before it yields to the event loop, in ms. */
const SLICE_MS = 25;

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Validates `sessions` into a batch. Rejects with the first problem, or the signal's reason once aborted. */
export async function prepareImport(
  sessions: readonly unknown[],
  options: SessionImportOptions = {},
): Promise<ImportBatch> {
  const { signal } = options;
  signal?.throwIfAborted();
  const { onConflict } = validate('importSessions', importBatchSchema, {
    sessions,
    onConflict: options.onConflict ?? 'error',
  });
  const checker = new ImportChecker();
  const checked: ImportBatch['sessions'] = [];
  let sliceStart = performance.now();
  for (let i = 0; i < sessions.length; i++) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTask();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    checked.push(checker.check(sessions[i], i));
  }
  signal?.throwIfAborted();
  return { sessions: checked, onConflict };
}
