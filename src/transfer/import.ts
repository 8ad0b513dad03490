/**
 * Import: an export file (or a bare array of sessions, or one session object)
 * read, parsed and handed to a store, which validates every session and then
 * writes them all in one transaction. Any failure rejects with a typed error
 * and leaves the database unchanged.
 */
import { InvalidInputError } from '../core/errors.js';
import type { ImportResult } from '../public/transfer.js';
import type { SessionImportOptions } from '../sessions/import-options.js';
import type { ImportOutcome } from '../sessions/protocol.js';
import type { ConflictPolicy, Session } from '../types.js';
import { sessionsOf } from './format.js';
import { type ImportSource, readText, sizeOf } from './read-text.js';

/** What an import writes to: any `SessionStore` (`openSessionStore()`, `connectSessionStore()`, `IndexedDbSessionService`). */
export interface TransferTarget {
  /** Writes the sessions in one transaction, all or none. */
  importSessions(sessions: readonly Session[], options?: SessionImportOptions): Promise<ImportOutcome>;
}

/** How far an import is. */
export interface ImportProgress {
  /** Bytes read so far. */
  bytes: number;
  /** The source's size: known for a string or a Blob; for a stream, `undefined` until it is read whole. */
  totalBytes: number | undefined;
  /** Sessions written so far; reaches `totalSessions` only once the import has committed. */
  sessions: number;
  /** Sessions the file holds; `undefined` until it is parsed. */
  totalSessions: number | undefined;
}

/** How `importSessions` treats sessions that exist, and how it reports. */
export interface ImportOptions {
  /**
   * Called as bytes are read, once the file is parsed (`totalSessions` known),
   * as sessions are written, and once more when the import has committed.
   */
  onProgress?: (progress: ImportProgress) => void;
  /**
   * What to do when an imported session id already exists for its app and
   * user: `'error'` (default: reject with `AlreadyExistsError`, nothing
   * imported), `'skip'` (keep the stored one), or `'replace'`.
   */
  onConflict?: ConflictPolicy;
  /**
   * Aborting rejects with the signal's reason and imports nothing, until the
   * write has started; the write is one transaction, which then completes.
   */
  signal?: AbortSignal;
}

export type { ImportResult };

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`importSessions: file: is not valid JSON (${why})`);
  }
}

/**
 * Imports sessions from `source`: an export document, a bare JSON array of
 * sessions, or one session object (what ADK's API server returns for a
 * session). Every session is validated before anything is written; then all
 * are written in one transaction. Rejects with `InvalidInputError` naming the
 * place (`importSessions: sessions[3].events[12].timestamp: ...`), with
 * `AlreadyExistsError` for a conflict under `onConflict: 'error'`, with
 * `QuotaExceededError` when storage is full, or with the signal's reason; in
 * every case nothing was imported.
 *
 * @example
 * ```ts
 * const file = input.files[0];
 * const { sessions, events } = await importSessions(store, file, { onConflict: 'skip' });
 * ```
 */
export async function importSessions(
  store: TransferTarget,
  source: ImportSource,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { onProgress, signal } = options;
  signal?.throwIfAborted();
  const progress: ImportProgress = { bytes: 0, totalBytes: sizeOf(source), sessions: 0, totalSessions: undefined };
  const report = (change: Partial<ImportProgress>): void => {
    Object.assign(progress, change);
    onProgress?.({ ...progress });
  };
  const text = await readText(source, signal, (bytes) => report({ bytes }));
  const sessions = sessionsOf(parseJson(text));
  signal?.throwIfAborted();
  report({ totalBytes: progress.totalBytes ?? progress.bytes, totalSessions: sessions.length });
  const outcome = await store.importSessions(sessions as Session[], {
    ...(options.onConflict !== undefined ? { onConflict: options.onConflict } : {}),
    ...(signal ? { signal } : {}),
    onProgress: (processed) => report({ sessions: processed }),
  });
  report({ sessions: sessions.length });
  return outcome;
}
