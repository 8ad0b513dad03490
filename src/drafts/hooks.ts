/**
 * What the drafts capability registers on the database: a session's drafts go
 * with it, in the transaction that removes it (a delete, or an import replacing
 * it). Awaited, as the artifacts' clean-up is: a range a cursor-stepped deletion
 * walks must be walked before the import writes after it.
 */
import type { SessionCleanup } from '../database/database.js';
import { removeSessionDrafts } from '../database/records/drafts.js';

export const sessionDraftsCleanup: SessionCleanup = {
  stores: ['drafts', 'draftChunks'],
  async removed(tx, sessions) {
    await Promise.all(sessions.map((s) => removeSessionDrafts(tx, s.appName, s.userId, s.id)));
  },
};
