/**
 * Deleting a session: its record, its events, its own state and the app's and user's session
 * counts in one transaction, with what other capabilities registered to remove
 * alongside (`SessionCleanup`); and the default clean-up of an import.
 */
import type { RemovedSessions, SessionCleanup } from '../database/database.js';
import { bound, type Db, type Tx } from '../database/idb/index.js';
import {
  ALL_STORES,
  type AppRecord,
  type StoreName,
  type StoreSchema,
  type UserRecord,
} from '../database/records/index.js';
import { clearState, initialKey, sessionScope } from '../database/records/state.js';
import type { DeleteSessionRequest } from '../types.js';
import type { ImportExtra } from './import.js';

/** What an import runs in its transaction when it is given nothing else: every registered clean-up, for the sessions it writes. */
export function cleanupOnImport(cleanups: readonly SessionCleanup[]): ImportExtra {
  return {
    stores: cleanups.flatMap((c) => c.stores),
    async write(tx: Tx<StoreSchema, StoreName>, written: RemovedSessions) {
      await Promise.all(cleanups.map((c) => c.removed(tx, written)));
    },
  };
}

/**
 * Removes a session and its events in one transaction, and runs every
 * registered clean-up in it (artifacts: those saved under the session's id,
 * also for a session never created, as ADK allows); with `counts`, also
 * lowers the app's and user's session counts in it. Resolves `false` for an
 * unknown session.
 */
export async function removeSession(
  db: Db<StoreSchema>,
  { appName, userId, sessionId }: DeleteSessionRequest,
  counts: boolean,
  cleanups: readonly SessionCleanup[],
): Promise<boolean> {
  const tx = db.transaction([...ALL_STORES, ...cleanups.flatMap((c) => c.stores)], 'readwrite');
  // Issued before the reads below, in the same transaction; a failure aborts it (tx.done rejects).
  for (const cleanup of cleanups) cleanup.removed(tx, [{ appName, userId, id: sessionId }]).catch(() => {});
  const [record, app, user] = await Promise.all([
    tx.objectStore('sessions').get([appName, userId, sessionId]),
    counts ? tx.objectStore('appState').get(appName) : undefined,
    counts ? tx.objectStore('userState').get([appName, userId]) : undefined,
  ]);
  if (!record) {
    await tx.done;
    return false;
  }
  tx.objectStore('sessions').delete([appName, userId, sessionId]);
  tx.objectStore('events').delete(bound([record.uid, 0], [record.uid, Number.POSITIVE_INFINITY]));
  clearState(tx.objectStore('state'), sessionScope(appName, userId, sessionId));
  tx.objectStore('state').delete(initialKey(appName, userId, sessionId));
  lowerCounts(tx.objectStore('appState'), tx.objectStore('userState'), app, user);
  await tx.done;
  return true;
}

type Putter<T> = { put(value: T): Promise<unknown> };

/** Writes `app` and `user` back with one session fewer; settled through their transaction. */
function lowerCounts(
  apps: Putter<AppRecord>,
  users: Putter<UserRecord>,
  app: AppRecord | undefined,
  user: UserRecord | undefined,
): void {
  if (app) apps.put({ ...app, sessionCount: Math.max(0, app.sessionCount - 1) });
  if (user) users.put({ ...user, sessionCount: Math.max(0, user.sessionCount - 1) });
}

/** Lowers the app's and user's session counts by one (a deletion made without them). */
export async function decrementCounts(db: Db<StoreSchema>, appName: string, userId: string): Promise<void> {
  const tx = db.transaction(['appState', 'userState'], 'readwrite');
  const [app, user] = await Promise.all([
    tx.objectStore('appState').get(appName),
    tx.objectStore('userState').get([appName, userId]),
  ]);
  lowerCounts(tx.objectStore('appState'), tx.objectStore('userState'), app, user);
  await tx.done;
}
