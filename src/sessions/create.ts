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
import {
  appScope,
  initialKey,
  readState,
  userScope,
  writeInitialState,
  writeSessionState,
  writeState,
} from '../database/records/state.js';

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

/** An app's or user's record (its session count) and its state, as a group of creates changes them. */
interface Shared {
  name: 'appState' | 'userState';
  record: AppRecord | UserRecord;
  values: StateRecord;
}

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
  const state = tx.objectStore('state');

  // Every read issued up front, so they pipeline; one failing must not leave the others' rejections unhandled.
  const found = new Map<string, Promise<unknown>>();
  const shared = new Map<string, Promise<Shared>>();
  const readShared = (scope: string[], name: Shared['name'], empty: Shared['record']): void => {
    const k = keyString(scope);
    if (shared.has(k)) return;
    const key = name === 'appState' ? empty.appName : [empty.appName, (empty as UserRecord).userId];
    const read = Promise.all([tx.objectStore(name).get(key as never), readState(state, scope)]);
    shared.set(k, handled(read.then(([record, values]) => ({ name, record: record ?? empty, values }))));
  };
  for (const o of orders) {
    const k = keyString([o.appName, o.userId, o.id]);
    if (!blind && !found.has(k)) found.set(k, handled(sessions.getKey([o.appName, o.userId, o.id])));
    readShared(appScope(o.appName), 'appState', { appName: o.appName, sessionCount: 0 });
    readShared(userScope(o.appName, o.userId), 'userState', { appName: o.appName, userId: o.userId, sessionCount: 0 });
  }
  const taken = new Set<string>();
  for (const [k, p] of found) if ((await p) !== undefined) taken.add(k);
  const scopes = new Map<string, Shared>();
  for (const [k, p] of shared) scopes.set(k, await p);

  const dirty = new Set<Shared>();
  // One more session in a shared scope, and its initial keys there.
  const join = (scope: string[], delta: StateRecord): StateRecord => {
    const s = scopes.get(keyString(scope)) as Shared;
    s.record.sessionCount++;
    dirty.add(s);
    applyDelta(s.values, delta);
    writeState(state, scope, delta);
    // A copy: later creates of the group change it.
    return { ...s.values };
  };
  const results = orders.map((o): Settled<Created> => {
    const k = keyString([o.appName, o.userId, o.id]);
    if (taken.has(k)) return { error: exists(o) };
    taken.add(k);
    const app = join(appScope(o.appName), o.state.app);
    const user = join(userScope(o.appName, o.userId), o.state.user);
    const record: SessionRecord = {
      appName: o.appName,
      userId: o.userId,
      id: o.id,
      uid: newId(),
      state: {},
      createTime: o.now,
      lastUpdateTime: o.now,
      revision: 0,
      nextSeq: 0,
      eventCount: 0,
    };
    writeSessionState(state, record, o.state.session);
    // No record for an empty one: none is left by an earlier session of the id (a delete removes it).
    if (Object.keys(o.state.session).length > 0) {
      writeInitialState(state, initialKey(o.appName, o.userId, o.id), o.state.session);
    }
    sessions.add(record);
    return { value: { record, state: o.state.session, app, user } };
  });
  // A create that failed leaves no trace, not even an empty app or user record.
  for (const s of dirty) tx.objectStore(s.name).put(s.record as never);
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
