/**
 * Sync across the worker boundary: the page starts and steps the worker's sync
 * engine and hears its status. Only data crosses, so a conflict policy here is
 * `rebase` or `fork`; a conflict callback or a `fetch` of the app's own needs
 * an in-thread store, where they are handed to the sync engine as they are.
 */
import type { MethodTable } from '../core/methods.js';
import type { SyncStatus } from './status.js';
import type { SyncOptions } from './sync-engine.js';

/**
 * What `store.sync()` takes: the sync engine's options. Through a worker only
 * those that survive a structured clone (`SyncStartRequest`, schema.ts); a conflict
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

/**
 * The sync calls, by name, with their callbacks' positions (see `MethodTable`):
 * what the host serves. The status listener outlives its call (sync releases it).
 */
export const SYNC_METHODS = { startSync: 1, syncNow: 0, stopSync: 0 } as const satisfies MethodTable<SyncBackend>;
