/**
 * The page's handle on sync: its status as a value and as change events, a
 * "sync now", and stop. The sync engine itself runs with the store engine (in
 * the worker, in worker modes): the page holds only this.
 */

import type { SyncBackend, SyncStartOptions } from '../sync/protocol.js';
import type { SyncStatus, SyncStatusListener } from '../sync/status.js';

export type { SyncStartOptions };

export class SyncHandle {
  private current: SyncStatus | undefined;
  private readonly listeners = new Set<SyncStatusListener>();

  private constructor(private readonly backend: SyncBackend) {}

  /** Starts sync on `backend`; resolves once it runs. */
  static async start(backend: SyncBackend, options: SyncStartOptions): Promise<SyncHandle> {
    const handle = new SyncHandle(backend);
    const first = await backend.startSync(options, (status) => handle.receive(status));
    handle.current ??= first;
    return handle;
  }

  /** The latest status: pending changes (per store and per session), last sync, last error, online. */
  get status(): SyncStatus {
    return this.current as SyncStatus;
  }

  /** Calls `listener` with each new status. Returns the unsubscribe function. */
  onStatus(listener: SyncStatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A full round now (push, then pull); resolves with the status after it. */
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
