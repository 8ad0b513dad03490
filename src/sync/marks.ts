/**
 * Sync's bookkeeping transactions on the device's database: the per-session
 * marks (how much of a session is in the server's order), the per-user feed
 * cursor, and the shared scopes as last synced. Like those in local.ts, each
 * writes what it depends on together, so a crash leaves the old or the new state.
 */
import { setOwn } from '../core/json.js';
import { APP_PREFIX, USER_PREFIX } from '../core/state.js';
import type { Db } from '../database/idb/index.js';
import type { StoreSchema } from '../database/records/index.js';
import { appScope, readState, replaceState, userScope } from '../database/records/state.js';
import type { SyncMark, SyncUser } from '../database/records/sync.js';
import { clone, type Key, type UserKey, userOf } from './local.js';
/** After the server created the session this device pushed (or had it already: then adopted). */
export async function markCreated(
  db: Db<StoreSchema>,
  key: Key,
  uid: string,
  created: { state: Record<string, unknown> } | 'exists',
): Promise<void> {
  const tx = db.transaction(['sessions', 'syncSessions'], 'readwrite');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  if (record?.uid === uid && mark === undefined) {
    const base = { ...userOf(key), id: key[2], uid, syncedNext: 0, serverPos: 0 };
    tx.objectStore('syncSessions').put(
      created === 'exists'
        ? { ...base, syncedState: {}, awaitingCreated: true }
        : { ...base, syncedState: clone(created.state) },
    );
  }
  await tx.done;
}

/** Forgets the mark of incarnation `uid` once its deletion is on the server. */
export async function dropMark(db: Db<StoreSchema>, key: Key, uid: string): Promise<void> {
  const tx = db.transaction(['syncSessions'], 'readwrite');
  const mark = await tx.objectStore('syncSessions').get(key);
  if (mark?.uid === uid) tx.objectStore('syncSessions').delete(key);
  await tx.done;
}

/** The mark of a session, if any, and whether the session is its incarnation. */
export async function markOf(db: Db<StoreSchema>, key: Key): Promise<{ mark?: SyncMark; current: boolean }> {
  const tx = db.transaction(['sessions', 'syncSessions'], 'readonly');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  return mark ? { mark, current: record?.uid === mark.uid } : { current: false };
}

export async function saveCursor(
  db: Db<StoreSchema>,
  user: UserKey,
  cursor: number,
  shared: SyncUser['shared'],
): Promise<void> {
  const tx = db.transaction(['syncUsers'], 'readwrite');
  const record: SyncUser = { ...user, cursor, lastSyncAt: Date.now() };
  if (shared) record.shared = clone(shared);
  tx.objectStore('syncUsers').put(record);
  await tx.done;
}

/**
 * The app and user state this device wrote and the server has not reported:
 * keys whose value differs from the last server snapshot, prefixed. A session
 * creation carries them, as no event does.
 */
export async function localSharedWrites(db: Db<StoreSchema>, user: UserKey): Promise<Record<string, unknown>> {
  const tx = db.transaction(['state', 'syncUsers'], 'readonly');
  const [app, mine, synced] = await Promise.all([
    readState(tx.objectStore('state'), appScope(user.appName)),
    readState(tx.objectStore('state'), userScope(user.appName, user.userId)),
    tx.objectStore('syncUsers').get([user.appName, user.userId]),
  ]);
  const out: Record<string, unknown> = {};
  const differing = (prefix: string, local: Record<string, unknown>, server: Record<string, unknown> = {}) => {
    for (const k of Object.keys(local)) {
      if (!Object.hasOwn(server, k) || JSON.stringify(server[k]) !== JSON.stringify(local[k])) {
        setOwn(out, prefix + k, local[k]);
      }
    }
  };
  differing(APP_PREFIX, app, synced?.shared?.app);
  differing(USER_PREFIX, mine, synced?.shared?.user);
  return out;
}

/** The server's shared state, once nothing of the user's is pending: then the server's is the whole truth. */
export async function replaceShared(
  db: Db<StoreSchema>,
  { appName, userId }: UserKey,
  appState: Record<string, unknown>,
  userState: Record<string, unknown>,
): Promise<void> {
  const tx = db.transaction(['state'], 'readwrite');
  const state = tx.objectStore('state');
  await Promise.all([
    replaceState(state, appScope(appName), clone(appState)),
    replaceState(state, userScope(appName, userId), clone(userState)),
  ]);
  await tx.done;
}
