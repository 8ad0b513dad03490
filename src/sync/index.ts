/**
 * Sync: the device side. Runs where the store engine runs; the page reaches it
 * through the store (`store.sync(...)`) and sees only its status.
 */
export type { Decision } from './local.js';
export type { SyncConflict, SyncConflictPolicy } from './policy.js';
export type { SyncStatus, SyncStatusListener } from './status.js';
export { SyncEngine, type SyncHost, type SyncOptions } from './sync-engine.js';
