/**
 * Export and import's public data types. Plain declarations checked against their zod schemas
 * by test/types/named-types.test-d.ts; this module imports nothing.
 */

/**
 * What an import does with a session whose id already exists for its app and user: `'error'`
 * rejects the whole import with `AlreadyExistsError` (nothing is imported), `'skip'` keeps the
 * stored session, `'replace'` deletes it first.
 */
export type ConflictPolicy = 'error' | 'skip' | 'replace';

/** What an import wrote (`importSessions`, and the sessions part of `importArchive`). */
export interface ImportResult {
  /** Sessions written (new or replacing a stored one). */
  sessions: number;
  /** Events written, over all written sessions. */
  events: number;
  /** Sessions left out because their id existed (`onConflict: 'skip'`). */
  skipped: number;
}
