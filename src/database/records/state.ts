/**
 * State, one record per key: an append writes the keys its delta sets and
 * nothing else, so its cost follows the change, not the state kept. A scope's
 * keys share a key prefix and are read back with one key-range read:
 * `['a', appName]` for `app:` keys, `['u', appName, userId]` for `user:` keys,
 * `['s', appName, userId, sessionId]` for a session's own (removed with the
 * session). Keys are stored without their `app:`/`user:` prefix. A session's own state as
 * `createSession` set it is kept whole in one record at `['i', appName, userId, sessionId]`
 * (none when it was empty), for a rewind to go back to.
 */
import { setOwn } from '../../core/json.js';
import type { StateRecord } from '../../core/state.js';
import { bound, type Store } from '../idb/index.js';

/** One state key of one scope: `k` is the scope's prefix with the key appended. */
export interface StateEntry {
  k: string[];
  v: unknown;
}

export type StateStore = Store<{ key: string[]; value: StateEntry; indexes: Record<never, never> }>;

export const appScope = (appName: string): string[] => ['a', appName];
export const userScope = (appName: string, userId: string): string[] => ['u', appName, userId];
export const sessionScope = (appName: string, userId: string, id: string): string[] => ['s', appName, userId, id];

/**
 * The key of the record holding a session's initial own state (as `createSession` gave it): written
 * once when the session is made, removed with it, read by a rewind only.
 */
export const initialKey = (appName: string, userId: string, id: string): string[] => ['i', appName, userId, id];

/**
 * Records `state` as the initial own state of the session at `key` (`initialKey`): none is kept
 * for an empty one, and a record left by an earlier session of that id goes. Settled through the
 * transaction.
 */
export function writeInitialState(store: StateStore, key: string[], state: StateRecord): void {
  if (Object.keys(state).length === 0) store.delete(key);
  else store.put({ k: key, v: state });
}

const keysOf = (scope: string[]) => bound(scope, [...scope, []]);

/** A scope's state as one object (`__proto__` a plain key). Reads the scope's keys only. */
export async function readState(store: StateStore, scope: string[]): Promise<StateRecord> {
  const state: StateRecord = {};
  for (const entry of await store.getAll(keysOf(scope))) setOwn(state, entry.k[scope.length] as string, entry.v);
  return state;
}

/** Writes `delta`'s keys into a scope, a record each; settled through the transaction. May throw what a put throws. */
export function writeState(store: StateStore, scope: string[], delta: StateRecord): void {
  for (const key of Object.keys(delta)) store.put({ k: [...scope, key], v: delta[key] });
}

/**
 * Removes every key of a scope. Writes issued before it resolves may be removed
 * too (without a native key range the removal walks a cursor): await it before
 * writing the scope again, or use `replaceState`.
 */
export function clearState(store: StateStore, scope: string[]): Promise<void> {
  return store.delete(keysOf(scope));
}

/** Replaces a scope's state whole. */
export async function replaceState(store: StateStore, scope: string[], state: StateRecord): Promise<void> {
  await clearState(store, scope);
  writeState(store, scope, state);
}

/**
 * A session's own state is split by weight: light values ride in its head
 * (`state`), which an append rewrites anyway, so setting them costs no request
 * of its own; heavy ones get a record per key, named in `big`. A key lives in one
 * place only. The head stays small: a value over `LIGHT` bytes, or one that
 * would take the head's values over `HEAD`, goes to a record.
 */
export interface SessionHead {
  appName: string;
  userId: string;
  id: string;
  state: StateRecord;
  big?: string[];
}

const LIGHT = 1024;
const HEAD = 8192;

/** A value's weight: the length of its JSON text (state is JSON data here); one JSON cannot write is heavy. */
function weight(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return HEAD;
  }
}

/** Sets `delta`'s keys on `head` (changed in place); returns the heavy ones to write as records and the records to remove. */
export function placeState(head: SessionHead, delta: StateRecord): { heavy: StateRecord; drop: string[] } {
  const heavy: StateRecord = {};
  const drop: string[] = [];
  const big = new Set(head.big);
  let total = weight(head.state);
  for (const key of Object.keys(delta)) {
    const value = delta[key];
    const w = weight(value) + key.length;
    if (Object.hasOwn(head.state, key)) total -= weight(head.state[key]) + key.length;
    if (w <= LIGHT && total + w <= HEAD) {
      setOwn(head.state, key, value);
      total += w;
      if (big.delete(key)) drop.push(key);
    } else {
      delete head.state[key];
      setOwn(heavy, key, value);
      big.add(key);
    }
  }
  head.big = [...big];
  if (!big.size) delete head.big;
  return { heavy, drop };
}

const scopeOf = (head: SessionHead): string[] => sessionScope(head.appName, head.userId, head.id);

/**
 * Sets `delta`'s keys in a session: light ones on `head` (the caller puts it
 * after), heavy ones as records. Throws what a put throws, `head` then as it was.
 */
export function writeSessionState(store: StateStore, head: SessionHead, delta: StateRecord): void {
  const { state, big } = head;
  head.state = { ...state };
  try {
    const { heavy, drop } = placeState(head, delta);
    writeState(store, scopeOf(head), heavy);
    for (const key of drop) store.delete([...scopeOf(head), key]);
  } catch (error) {
    Object.assign(head, { state, big });
    throw error;
  }
}

/** Replaces a session's state whole (the caller puts `head` after). */
export async function replaceSessionState(store: StateStore, head: SessionHead, state: StateRecord): Promise<void> {
  head.state = {};
  delete head.big;
  await clearState(store, scopeOf(head));
  writeSessionState(store, head, state);
}

/** A session's own state: its head's light keys, and its heavy ones read only if it has any. */
export async function readSessionState(store: StateStore, head: SessionHead): Promise<StateRecord> {
  return { ...head.state, ...(head.big && (await readState(store, scopeOf(head)))) };
}
