/**
 * What sync keeps on the device, beside the sessions. No write on the append
 * path: what is not yet pushed is derived. A session's events with
 * `seq < syncedNext` are exactly the server's first `serverPos` events, in the
 * server's order; every later event is pending. A session with no mark (or a
 * mark for another incarnation) is a pending creation; a mark whose session is
 * gone is a pending deletion; erasures are pending while the session's
 * `erasures` count is past the mark's `syncedErasures`. All of it is in
 * IndexedDB, so it survives reloads and crashes.
 */
export interface SyncMark {
  appName: string;
  userId: string;
  id: string;
  /** The local incarnation the mark describes (SessionRecord.uid). */
  uid: string;
  /** Local events with a lower `seq` are in the server's order. */
  syncedNext: number;
  /** How many of the server's events of this session the device holds. */
  serverPos: number;
  /** Session-scope state after those events: the fold of the server's order. */
  syncedState: Record<string, unknown>;
  /**
   * The session's `erasures` count when the server last took this device's erasures of its synced
   * events: a higher count on the session means erasures to push. Absent: none pushed yet.
   */
  syncedErasures?: number;
  /**
   * The server had the session already when this device pushed its creation:
   * its initial state comes with the pull, and the events wait for it.
   */
  awaitingCreated?: boolean;
}

/** Per user: how far the device has read the server's change feed. */
export interface SyncUser {
  appName: string;
  userId: string;
  cursor: number;
  lastSyncAt?: number;
  /** The app's and user's state as the server last reported them (unprefixed). */
  shared?: { app: Record<string, unknown>; user: Record<string, unknown> };
}
