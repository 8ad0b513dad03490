/** What happens to pending events when the server's newer events overtake them. */
import type { Event } from '../types.js';
import type { Decision } from './local.js';

/** A session whose pending events the server's newer events overtook: what a conflict callback decides on. */
export interface SyncConflict {
  /** The session's app. */
  appName: string;
  /** The session's user. */
  userId: string;
  /** The session's id. */
  sessionId: string;
  /** The server's events the device did not have, in the server's order. */
  server: Event[];
  /** The device's pending events, in order. */
  pending: Event[];
}

/**
 * `rebase` (default): the pending events go after the server's, whole.
 * `fork`: they move to a new session `<id>~fork~<first event id>` (pushed as
 * one), and the session becomes the server's. Or a function deciding per
 * conflict, which may also answer `drop` (discard the pending events).
 */
export type SyncConflictPolicy = 'rebase' | 'fork' | ((conflict: SyncConflict) => Decision | Promise<Decision>);

export async function decide(policy: SyncConflictPolicy | undefined, conflict: SyncConflict): Promise<Decision> {
  if (policy === undefined || policy === 'rebase') return 'rebase';
  if (policy === 'fork') return 'fork';
  const answer = await policy(conflict);
  return answer === 'fork' || answer === 'drop' ? answer : 'rebase';
}
