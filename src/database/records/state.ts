/**
 * State, one record per key: an append writes the keys its delta sets and
 * nothing else, so its cost follows the change, not the state kept. A scope's
 * keys share a key prefix and are read back with one key-range read:
 * `['a', appName]` for `app:` keys, `['u', appName, userId]` for `user:` keys,
 * `['s', appName, userId, sessionId]` for a session's own (removed with the
 * session). Keys are stored without their `app:`/`user:` prefix.
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

const ignore = (): void => {};
const keysOf = (scope: string[]) => bound(scope, [...scope, []]);

/** A scope's state as one object (`__proto__` a plain key). Reads the scope's keys only. */
export async function readState(store: StateStore, scope: string[]): Promise<StateRecord> {
  const state: StateRecord = {};
  for (const entry of await store.getAll(keysOf(scope))) setOwn(state, entry.k[scope.length] as string, entry.v);
  return state;
}

/** Writes `delta`'s keys into a scope, a record each; settled through the transaction. May throw what a put throws. */
export function writeState(store: StateStore, scope: string[], delta: StateRecord): void {
  for (const key of Object.keys(delta)) store.put({ k: [...scope, key], v: delta[key] }).catch(ignore);
}

/**
 * Removes every key of a scope. Writes issued before it resolves may be removed
 * too (without a native key range the removal walks a cursor): await it before
 * writing the scope again, or use `replaceState`.
 */
export function clearState(store: StateStore, scope: string[]): Promise<void> {
  const done = store.delete(keysOf(scope));
  done.catch(ignore);
  return done;
}

/** Replaces a scope's state whole. */
export async function replaceState(store: StateStore, scope: string[], state: StateRecord): Promise<void> {
  await clearState(store, scope);
  writeState(store, scope, state);
}
