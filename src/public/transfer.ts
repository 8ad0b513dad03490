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
