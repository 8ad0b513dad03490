/**
 * Creating sessions in groups: every `createSession` waiting at one moment is
 * written in one readwrite transaction, as appends are (see ./append.ts). Each
 * create still stands alone: an id that exists fails that create only.
 */
import { AlreadyExistsError } from '../core/errors.js';
import type { Settled } from '../core/group-commit.js';
import { newId } from '../core/ids.js';
import { applyDelta, type ScopedDelta, type StateRecord } from '../core/state.js';
import { type Db, handled } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import type { AppRecord, SessionRecord, StoreSchema, UserRecord } from '../database/records/index.js';
import { appScope, readState, sessionScope, userScope, writeState } from '../database/records/state.js';

export interface CreateOrder {
  appName: string;
  userId: string;
  id: string;
  /** The initial state, split into its scopes; a private copy. */
  state: ScopedDelta;
  now: number;
}

export interface Created {
  record: SessionRecord;
  /** The session's own state. */
  state: StateRecord;
  /** The app's and user's state right after this create, for the session it returns. */
  app: Record<string, unknown>;
  user: Record<string, unknown>;
}

const ignore = (): void => {};

/** ADK's sentence first (`DatabaseSessionService`'s words), so code matching ADK's message matches ours; then where. */
const exists = (o: CreateOrder): AlreadyExistsError =>
  new AlreadyExistsError(`Session with id ${o.id} already exists. (app "${o.appName}", user "${o.userId}")`);

/**
 * Writes `orders` in one transaction, in order: a later create of a group sees
 * the shared state and counts the earlier ones left. Must reject if the
 * transaction aborts; then none of the group is stored.
 *
 * `blind` skips looking up whether each id is stored, which saves a read per
 * create: the `add` of a stored id then makes the whole transaction abort with a
 * ConstraintError, and the caller must write the group again with lookups, where
 * that create alone fails with `AlreadyExistsError`.
 */
export async function commitCreates(
  db: Db<StoreSchema>,
  orders: CreateOrder[],
  blind: boolean,
): Promise<Settled<Created>[]> {
  const tx = db.transaction(['sessions', 'appState', 'userState', 'state'], 'readwrite');
  const sessions = tx.objectStore('sessions');
  const appStore = tx.objectStore('appState');
  const userStore = tx.objectStore('userState');
  const state = tx.objectStore('state');

  // Every read issued up front, so they pipeline; one failing must not leave the others' rejections unhandled.
  const found = new Map<string, Promise<unknown>>();
  const appReads = new Map<string, Promise<[AppRecord | undefined, StateRecord]>>();
  const userReads = new Map<string, Promise<[UserRecord | undefined, StateRecord]>>();
  for (const o of orders) {
    const k = keyString([o.appName, o.userId, o.id]);
    if (!blind && !found.has(k)) found.set(k, handled(sessions.getKey([o.appName, o.userId, o.id])));
    if (!appReads.has(o.appName)) {
      appReads.set(o.appName, handled(Promise.all([appStore.get(o.appName), readState(state, appScope(o.appName))])));
    }
    const uk = keyString([o.appName, o.userId]);
    if (!userReads.has(uk)) {
      const read = Promise.all([
        userStore.get([o.appName, o.userId]),
        readState(state, userScope(o.appName, o.userId)),
      ]);
      userReads.set(uk, handled(read));
    }
  }
  const taken = new Set<string>();
  for (const [k, p] of found) if ((await p) !== undefined) taken.add(k);
  const apps = new Map<string, AppRecord & { state: StateRecord }>();
  for (const [name, p] of appReads) {
    const [app, appState] = await p;
    apps.set(name, { appName: name, sessionCount: app?.sessionCount ?? 0, state: appState });
  }
  const users = new Map<string, UserRecord & { state: StateRecord }>();
  for (const [k, p] of userReads) {
    const [appName, userId] = JSON.parse(k) as [string, string];
    const [user, userState] = await p;
    users.set(k, { appName, userId, sessionCount: user?.sessionCount ?? 0, state: userState });
  }

  const dirtyApps = new Set<string>();
  const dirtyUsers = new Set<string>();
  const results = orders.map((o): Settled<Created> => {
    const k = keyString([o.appName, o.userId, o.id]);
    if (taken.has(k)) return { error: exists(o) };
    taken.add(k);
    const app = apps.get(o.appName) as AppRecord & { state: StateRecord };
    const user = users.get(keyString([o.appName, o.userId])) as UserRecord & { state: StateRecord };
    app.sessionCount++;
    user.sessionCount++;
    dirtyApps.add(o.appName);
    dirtyUsers.add(keyString([o.appName, o.userId]));
    applyDelta(app.state, o.state.app);
    applyDelta(user.state, o.state.user);
    writeState(state, appScope(o.appName), o.state.app);
    writeState(state, userScope(o.appName, o.userId), o.state.user);
    writeState(state, sessionScope(o.appName, o.userId, o.id), o.state.session);
    const record: SessionRecord = {
      appName: o.appName,
      userId: o.userId,
      id: o.id,
      uid: newId(),
      createTime: o.now,
      lastUpdateTime: o.now,
      revision: 0,
      nextSeq: 0,
      eventCount: 0,
    };
    sessions.add(record).catch(ignore);
    // Copies: later creates of the group change these records' state.
    return { value: { record, state: o.state.session, app: { ...app.state }, user: { ...user.state } } };
  });
  // A create that failed leaves no trace, not even an empty app or user record.
  for (const name of dirtyApps) {
    const { state: _, ...app } = apps.get(name) as AppRecord & { state: StateRecord };
    appStore.put(app).catch(ignore);
  }
  for (const k of dirtyUsers) {
    const { state: _, ...user } = users.get(k) as UserRecord & { state: StateRecord };
    userStore.put(user).catch(ignore);
  }
  try {
    await tx.done;
  } catch (error) {
    // Looked up, a stored id can only come from another writer slipping an equal key in: a group is
    // then retried alone, and one create alone has its answer.
    if (!blind && error instanceof Error && error.name === 'ConstraintError' && orders.length === 1) {
      return [{ error: exists(orders[0] as CreateOrder) }];
    }
    throw error;
  }
  return results;
}
