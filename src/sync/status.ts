/** What sync tells the app about itself, as a value and on every change. */
import type { SyncError } from '../core/errors.js';

/** Where sync stands: what is pending, the last round and the last error, whether the device is online. */
export interface SyncStatus {
  /** `syncing` while a round runs; `offline` after the server could not be reached; `stopped` after `stop()`. */
  phase: 'idle' | 'syncing' | 'offline' | 'error' | 'stopped';
  /** The last request reached the server (whatever it answered). */
  online: boolean;
  /** Local changes not yet on the server: events, plus one per session creation, deletion, or erase to send. */
  pending: number;
  /** Pending changes per session id, for sessions that have any. */
  sessions: Record<string, number>;
  /** When a round last completed (epoch ms), `null` before the first. */
  lastSyncAt: number | null;
  /**
   * Sessions the server refused in the last round, by id, and why (an event
   * larger than its body cap: 413; `app:` state it does not let this user write: 403).
   * Their changes stay pending; the round went on without them.
   */
  refused: Record<string, { message: string; status: number }>;
  /** The last round's failure, `null` once a round succeeds. */
  lastError: { message: string; kind: SyncError['kind']; status: number; at: number } | null;
}

/** Called with each new `SyncStatus`. */
export type SyncStatusListener = (status: SyncStatus) => void;

export const initialStatus = (): SyncStatus => ({
  phase: 'idle',
  online: false,
  pending: 0,
  sessions: {},
  refused: {},
  lastSyncAt: null,
  lastError: null,
});
