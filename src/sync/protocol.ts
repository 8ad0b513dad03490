/**
 * Sync across the worker boundary: the page starts and steps the worker's sync
 * engine and hears its status. Only data crosses, so a conflict policy here is
 * `rebase` or `fork`; a conflict callback or a `fetch` of the app's own needs
 * an in-thread store, where they are handed to the sync engine as they are.
 */
import * as z from 'zod/mini';
import { MAX_ID_LENGTH } from '../core/limits.js';
import type { SyncStatus } from './status.js';
import type { SyncOptions } from './sync-engine.js';

const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH));
const ms = z.number().check(z.int(), z.positive());

export const syncStartSchema = z.object({
  url: z.string().check(z.refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')),
  token: z.string().check(z.minLength(1)),
  appName: id,
  userId: id,
  conflict: z.optional(z.enum(['rebase', 'fork'])),
  live: z.optional(z.boolean()),
  intervalMs: z.optional(ms),
  retry: z.optional(z.object({ minMs: ms, maxMs: ms })),
  pushDelayMs: z.optional(z.number().check(z.int(), z.nonnegative())),
  requestTimeoutMs: z.optional(ms),
});

/** What the page may ask of sync: the engine's options that survive a structured clone. */
export type SyncStartRequest = z.output<typeof syncStartSchema>;

/**
 * What `store.sync()` takes: the sync engine's options. Through a worker only
 * those that survive a structured clone (`SyncStartRequest`); a conflict
 * callback and `fetch` are refused there, in words.
 */
export type SyncStartOptions = SyncOptions;

/** What a backend (in-thread, or the worker through the client) offers for sync. */
export interface SyncBackend {
  /**
   * Starts sync for the store (replacing a running one with other options;
   * joining one with the same), reporting every status to `onStatus`.
   * Resolves with the status at once.
   */
  startSync(request: SyncStartOptions, onStatus: (status: SyncStatus) => void): Promise<SyncStatus>;
  /** A full round now; resolves with the status after it. */
  syncNow(): Promise<SyncStatus>;
  /** Stops this caller's sync (the engine stops when its last caller does). */
  stopSync(): Promise<void>;
}
