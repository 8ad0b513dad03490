/**
 * Memory entries of erased events removed (`SessionErase`): the entry of each erased event added
 * under the session's id (`addSessionToMemory`, `addEventsToMemory` with that `sessionId`), in the
 * erase's transaction, and the user's memory version bumped so that every realm's cached index
 * (./engine.ts) is rebuilt without them. Entries added under another session id, or none, are not
 * the session's: the app deletes those with `deleteMemory`.
 */
import type { EraseWriter } from '../database/database.js';
import { handled } from '../database/idb/index.js';

export const eraseMemories: EraseWriter = async (tx, { appName, userId, id }, eventIds) => {
  const memories = tx.objectStore('memories');
  const versions = tx.objectStore('memoryVersions');
  const keys = eventIds.map((eventId): [string, string, string, string] => [appName, userId, id, eventId]);
  const [found, version] = await Promise.all([
    Promise.all(keys.map((key) => handled(memories.getKey(key)))),
    handled(versions.get([appName, userId])),
  ]);
  const gone = keys.filter((_, i) => found[i] !== undefined);
  if (gone.length === 0) return;
  for (const key of gone) memories.delete(key);
  versions.put({ appName, userId, version: (version?.version ?? 0) + 1 });
};
