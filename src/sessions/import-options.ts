/** What the page does for an import before the store checks and writes it. */

import type { ConflictPolicy, Session } from '../types.js';
import type { ImportBatch } from './protocol.js';

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

/**
 * The page side of an import: the signal and nothing else. The store (in a
 * worker, or behind the in-thread boundary check) validates every session
 * before it writes any, so the page carries no schema code.
 */
export function prepareImport(sessions: readonly unknown[], options: SessionImportOptions = {}): ImportBatch {
  options.signal?.throwIfAborted();
  return { sessions: sessions as Session[], onConflict: options.onConflict ?? 'error' };
}
