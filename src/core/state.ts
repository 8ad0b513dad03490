/**
 * State scopes by key prefix. `app:k` is shared by every user and session of an
 * app, `user:k` by every session of one user, `temp:k` lives for one invocation
 * and is never stored, and any other key belongs to its session. Shared scopes
 * are stored without their prefix and merged back with it.
 */
import { setOwn } from './json.js';

/** The prefix of a state key shared by every user and session of an app. */
export const APP_PREFIX = 'app:';
/** The prefix of a state key shared by every session of one user. */
export const USER_PREFIX = 'user:';
/** The prefix of a state key that lives for one invocation and is never stored. */
export const TEMP_PREFIX = 'temp:';

export type StateRecord = Record<string, unknown>;

export interface ScopedDelta {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
}

/** Splits a delta into the three stored scopes, prefixes removed; `temp:` keys are dropped. */
export function splitDelta(delta: StateRecord | undefined): ScopedDelta {
  const scoped: ScopedDelta = { app: {}, user: {}, session: {} };
  if (!delta) return scoped;
  for (const key of Object.keys(delta)) {
    const value = delta[key];
    if (key.startsWith(TEMP_PREFIX)) continue;
    if (key.startsWith(APP_PREFIX)) setOwn(scoped.app, key.slice(APP_PREFIX.length), value);
    else if (key.startsWith(USER_PREFIX)) setOwn(scoped.user, key.slice(USER_PREFIX.length), value);
    else setOwn(scoped.session, key, value);
  }
  return scoped;
}

export function hasTempKeys(delta: StateRecord): boolean {
  return Object.keys(delta).some((key) => key.startsWith(TEMP_PREFIX));
}

/** A copy of `delta` without its `temp:` keys. */
export function withoutTemp(delta: StateRecord): StateRecord {
  const kept: StateRecord = {};
  for (const key of Object.keys(delta)) {
    if (!key.startsWith(TEMP_PREFIX)) setOwn(kept, key, delta[key]);
  }
  return kept;
}

/** New values replace old ones whole (no deep merge); `null` is a value, not a deletion. */
export function applyDelta(target: StateRecord, delta: StateRecord): void {
  for (const key of Object.keys(delta)) setOwn(target, key, delta[key]);
}

/** The merged view a session shows: its own keys, then `app:` and `user:` keys. */
export function mergeState(app: StateRecord, user: StateRecord, session: StateRecord): StateRecord {
  const merged: StateRecord = {};
  applyDelta(merged, session);
  for (const key of Object.keys(app)) setOwn(merged, APP_PREFIX + key, app[key]);
  for (const key of Object.keys(user)) setOwn(merged, USER_PREFIX + key, user[key]);
  return merged;
}

export function isEmpty(record: StateRecord): boolean {
  return Object.keys(record).length === 0;
}
