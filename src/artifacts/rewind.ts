/**
 * A session's artifacts brought back by a rewind (ADK's rule, adk-python's `_rewind_utils`): each
 * artifact of the session (not the user's `user:` ones) whose version the events name changed
 * since the rewind point is saved again as a new version holding what the version named at that
 * point held (its bytes, type and metadata), or empty `application/octet-stream` bytes if none was
 * named then or that version is gone. Runs inside the rewind's transaction (`SessionRewind`).
 */
import { setOwn } from '../core/json.js';
import type { NamedVersions, RewindWriter } from '../database/database.js';
import { handled } from '../database/idb/index.js';
import type { ArtifactRecord } from '../database/records/artifacts.js';
import { type ArtifactStore, versionsRange } from './ranges.js';

export const restoreArtifacts: RewindWriter = async (tx, { appName, userId, id }, atPoint, latest) => {
  const store = tx.objectStore('artifacts') as ArtifactStore;
  // Own keys only: a name such as `__proto__` is a plain name.
  const then = (name: string) => (Object.hasOwn(atPoint, name) ? atPoint[name] : undefined);
  const changed = Object.keys(latest).filter((name) => !name.startsWith('user:') && then(name) !== latest[name]);
  // Every read issued up front, so they pipeline.
  const reads = changed.map((filename) => {
    const old = then(filename);
    return handled(
      Promise.all([
        old === undefined ? undefined : store.get([appName, userId, id, filename, old]),
        store.openKeyCursor(versionsRange(appName, userId, id, filename), 'prev').then((c) => c?.primaryKey[4]),
      ]),
    );
  });
  const written: NamedVersions = {};
  const createTime = Date.now();
  for (const [i, filename] of changed.entries()) {
    const [old, last] = await (reads[i] as (typeof reads)[number]);
    const version = last === undefined ? 0 : last + 1;
    const record: ArtifactRecord = old
      ? { ...old, version, createTime }
      : {
          appName,
          userId,
          scope: id,
          filename,
          version,
          mimeType: 'application/octet-stream',
          size: 0,
          createTime,
          body: { kind: 'bytes', data: new ArrayBuffer(0) },
        };
    store.add(record);
    setOwn(written, filename, version);
  }
  return written;
};
