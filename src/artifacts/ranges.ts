/**
 * Key ranges over the `artifacts` store. Keys are
 * `[appName, userId, scope, filename, version]`; an array sorts after every
 * string and number, so `[..., x, []]` closes the range of everything under `x`
 * (and `doc`'s range never reaches `doc/nested`).
 */

import { type Bounds, bound, type Store } from '../database/idb/index.js';
import type { ArtifactKey } from '../database/records/artifacts.js';
import type { StoreSchema } from '../database/records/index.js';
import type { ImportExtra } from '../sessions/import.js';

export type ArtifactStore = Store<StoreSchema['artifacts']>;

/** Every version of one artifact. */
export const versionsRange = (appName: string, userId: string, scope: string, filename: string): Bounds<ArtifactKey> =>
  bound([appName, userId, scope, filename] as unknown as ArtifactKey, [appName, userId, scope, filename, []]);

/** Every artifact of one scope (a session's, or the user's). */
export const scopeRange = (appName: string, userId: string, scope: string): Bounds<ArtifactKey> =>
  bound([appName, userId, scope] as unknown as ArtifactKey, [appName, userId, scope, []]);

/** Everything under a key prefix (an app, a user of it, a session of that user). */
export const prefixRange = (prefix: string[]): Bounds<ArtifactKey> =>
  bound(prefix as unknown as ArtifactKey, [...prefix, []]);

/** Deletes a session's own artifacts (not the user's `user:` ones); settled through the transaction. */
export function deleteSessionArtifacts(store: ArtifactStore, appName: string, userId: string, sessionId: string): void {
  store.delete(scopeRange(appName, userId, sessionId)).catch(() => {});
}

/**
 * What every import writes besides sessions: an imported session starts with no
 * artifacts of an earlier incarnation of its id, as after `deleteSession`.
 * Awaited, so that writes issued after it cannot land in a range a
 * cursor-stepped deletion has yet to walk.
 */
export const clearImportedSessions: ImportExtra = {
  stores: ['artifacts'],
  async write(tx, written) {
    const store = tx.objectStore('artifacts') as ArtifactStore;
    await Promise.all(written.map((s) => store.delete(scopeRange(s.appName, s.userId, s.id))));
  },
};
