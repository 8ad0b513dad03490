/**
 * Key ranges over the `artifacts` store. Keys are
 * `[appName, userId, scope, filename, version]`; an array sorts after every
 * string and number, so `[..., x, []]` closes the range of everything under `x`
 * (and `doc`'s range never reaches `doc/nested`).
 */

import { lazy } from '../core/lazy.js';
import type { SessionCleanup, SessionRewind } from '../database/database.js';
import { type Bounds, bound, type Store } from '../database/idb/index.js';
import type { ArtifactKey } from '../database/records/artifacts.js';
import type { StoreSchema } from '../database/records/index.js';

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
/**
 * Artifacts saved under a session's id go with the session, in the transaction
 * that removes it (a delete, or an import replacing it): what the artifacts
 * slice registers on the database (`Database.onSessionsRemoved`). Awaited by
 * an import, so that writes issued after it cannot land in a range a
 * cursor-stepped deletion has yet to walk.
 */
export const sessionArtifactsCleanup: SessionCleanup = {
  stores: ['artifacts'],
  async removed(tx, sessions) {
    const store = tx.objectStore('artifacts') as ArtifactStore;
    await Promise.all(sessions.map((s) => store.delete(scopeRange(s.appName, s.userId, s.id))));
  },
};

/**
 * A rewound session's artifacts go back with it, in the rewind's transaction (see ./rewind.ts):
 * what the artifacts slice registers on the database (`Database.onSessionRewound`).
 */
export const sessionArtifactsRewind: SessionRewind = {
  stores: ['artifacts'],
  load: lazy(async () => (await import('./rewind.js')).restoreArtifacts),
};
