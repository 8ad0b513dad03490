/**
 * What the artifacts slice registers on the database so that a session's artifacts follow the
 * session: removed with it, and brought back by its rewind, each in the session's own transaction.
 * The rewind's code is fetched on first use (./rewind.ts).
 */
import { lazy } from '../core/lazy.js';
import type { SessionCleanup, SessionRewind } from '../database/database.js';
import { type ArtifactStore, scopeRange } from './ranges.js';

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
