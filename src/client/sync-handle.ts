/**
 * The page's handle on sync: its status as a value and as change events, a
 * "sync now", and stop. The sync engine itself runs with the store engine (in
 * the worker, in worker modes): the page holds only this.
 */

import type { SyncBackend, SyncStartOptions } from '../sync/protocol.js';
import type { SyncStatus, SyncStatusListener } from '../sync/status.js';

export type { SyncStartOptions };

/** What `store.sync()` resolves: the running sync of one user's sessions. */
export interface SyncHandle {
  /** The latest status: pending changes (per store and per session), last sync, last error, online. */
  readonly status: SyncStatus;
  /** Calls `listener` with each new status. Returns the unsubscribe function. */
  onStatus(listener: SyncStatusListener): () => void;
  /** A full round now (push, then pull); resolves with the status after it. */
  syncNow(): Promise<SyncStatus>;
  /** Stops syncing: no more rounds, and no more status events. */
  stop(): Promise<void>;
}

/** Starts sync on `backend`; resolves its handle once it runs. */
export function startSync(backend: SyncBackend, options: SyncStartOptions): Promise<SyncHandle> {
  return BackedSyncHandle.start(backend, options);
}

/** The members' contracts are on `SyncHandle`. */
class BackedSyncHandle implements SyncHandle {
  private current: SyncStatus | undefined;
  private readonly listeners = new Set<SyncStatusListener>();

  private constructor(private readonly backend: SyncBackend) {}

  static async start(backend: SyncBackend, options: SyncStartOptions): Promise<SyncHandle> {
    const handle = new BackedSyncHandle(backend);
    const first = await backend.startSync(options, (status) => handle.receive(status));
    handle.current ??= first;
    return handle;
  }

  get status(): SyncStatus {
    return this.current as SyncStatus;
  }

  onStatus(listener: SyncStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async syncNow(): Promise<SyncStatus> {
    return this.receive(await this.backend.syncNow());
  }

  stop(): Promise<void> {
    this.listeners.clear();
    return this.backend.stopSync();
  }

  private receive(status: SyncStatus): SyncStatus {
    this.current = status;
    for (const listener of this.listeners) listener(status);
    return status;
  }
}
