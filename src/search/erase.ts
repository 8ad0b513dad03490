/**
 * Saved search shards of an erased session removed (`SessionErase`): a shard is a serialised
 * index holding its events' words, so every saved shard that holds the session (any of its events)
 * is deleted in the erase's transaction, and no erased word stays in the database. A realm whose
 * index is loaded hears the erase, reads the session again, drops the erased events' words
 * (./user-index.ts vacuums a shard before saving it) and saves its shards again; a realm that
 * loads the index later finds those sessions unindexed and indexes them from their events.
 */
import type { EraseWriter } from '../database/database.js';
import { bound } from '../database/idb/index.js';

export const eraseShards: EraseWriter = async (tx, { appName, userId, uid }) => {
  const shards = tx.objectStore('searchShards');
  const saved = await shards.getAll(bound([appName, userId], [appName, userId, Number.POSITIVE_INFINITY]));
  for (const record of saved) {
    if (record.sessions.some((mark) => mark.uid === uid)) shards.delete([appName, userId, record.shard]);
  }
};
