/**
 * The artifact service in terms of keys and versions, on the session store's
 * database (through `ArtifactHost.transact`). Trusts its input: the front and
 * the worker host validate first.
 */

import type { DatabaseOwner } from '../database/database.js';
import { type ArtifactRecord, type StoredBody, scopeOf, USER_SCOPE } from '../database/records/artifacts.js';
import type { SessionEngine } from '../sessions/engine.js';
import type { ImportBatch } from '../sessions/protocol.js';
import { BytesForm, toStored } from './bytes-form.js';
import { sessionArtifactsCleanup } from './hooks.js';
import type { ArchiveImportOutcome, ArtifactUsage, ArtifactVersion, LoadedArtifact } from './protocol.js';
import { type ArtifactStore, prefixRange, scopeRange, versionsRange } from './ranges.js';
import type {
  ArtifactFileRequest,
  ArtifactImport,
  ArtifactKeyRequest,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  ArtifactWrite,
} from './schema.js';

/** What artifacts need of the store: its database, and the session import an archive's import joins. */
export type ArtifactHost = DatabaseOwner & Pick<SessionEngine, 'importSessions'>;

/** How the artifacts capability stores bytes (an option of `new IndexedDbSessionService`). */
export interface ArtifactEngineOptions {
  /**
   * How bytes are stored: `'blob'` (default; Chromium and Firefox keep them as
   * files, read lazily; where IndexedDB refuses a Blob, as in Safari's Private
   * Browsing, the engine switches to ArrayBuffers by itself) or `'arraybuffer'`
   * from the start.
   */
  artifactBytes?: 'blob' | 'arraybuffer';
}

const engines = new WeakMap<ArtifactHost, ArtifactEngine>();

/** The artifact engine of `engine`, made on first request: the first caller's options stay. */
export function artifactEngineFor(engine: ArtifactHost, options: ArtifactEngineOptions = {}): ArtifactEngine {
  let found = engines.get(engine);
  if (!found) {
    found = new ArtifactEngine(engine, options);
    engines.set(engine, found);
  }
  return found;
}

/** The stored record of an imported artifact version, holding `body`. */
function importedRecord(a: ArtifactImport, body: StoredBody, size: number): ArtifactRecord {
  const { appName, userId, sessionId, filename, version, mimeType, customMetadata, createTime } = a;
  return {
    appName,
    userId,
    scope: scopeOf(sessionId, filename),
    filename,
    version,
    mimeType,
    size,
    createTime,
    ...(customMetadata !== undefined ? { customMetadata } : {}),
    body,
  };
}

export class ArtifactEngine {
  private readonly bytes: BytesForm;

  constructor(
    private readonly engine: ArtifactHost,
    options: ArtifactEngineOptions,
  ) {
    this.bytes = new BytesForm(options.artifactBytes);
  }

  saveArtifact(write: ArtifactWrite): Promise<number> {
    return this.bytes.write(write.body.kind === 'bytes', (asBlobs) => this.saveOnce(write, asBlobs));
  }

  private async saveOnce(write: ArtifactWrite, asBlobs: boolean): Promise<number> {
    const { appName, userId, sessionId, filename, mimeType, customMetadata } = write;
    const scope = scopeOf(sessionId, filename);
    // Anything asynchronous besides IndexedDB requests must happen before the transaction opens.
    const { body, size } = await toStored(write.body, asBlobs);
    return this.engine.transact(async (db) => {
      const tx = db.transaction('artifacts', 'readwrite');
      const store = tx.objectStore('artifacts');
      const last = await store.openKeyCursor(versionsRange(appName, userId, scope, filename), 'prev');
      const version = last ? last.primaryKey[4] + 1 : 0;
      const record: ArtifactRecord = {
        appName,
        userId,
        scope,
        filename,
        version,
        mimeType,
        size,
        createTime: Date.now(),
        ...(customMetadata !== undefined ? { customMetadata } : {}),
        body,
      };
      store.add(record);
      await tx.done;
      return version;
    });
  }

  async importWithArtifacts(
    batch: ImportBatch,
    artifacts: ArtifactImport[],
    onProgress?: (processed: number) => void,
  ): Promise<ArchiveImportOutcome> {
    const bytes = artifacts.filter((a) => a.body.kind === 'bytes');
    const first = bytes[0];
    if (first) await this.bytes.probe(() => this.tryBlob(first));
    // A retry starts the import over: its reports resume where the first try's stopped.
    let reported = 0;
    const progress =
      onProgress &&
      ((processed: number) => {
        if (processed <= reported) return;
        reported = processed;
        onProgress(processed);
      });
    return this.bytes.write(bytes.length > 0, (asBlobs) => this.importOnce(batch, artifacts, asBlobs, progress));
  }

  /** Stores a one-byte Blob under `at`'s key in a transaction it then aborts; rejects as the Blob's write did. */
  private tryBlob(at: ArtifactImport): Promise<void> {
    const record = importedRecord(at, { kind: 'bytes', data: new Blob([new Uint8Array(1)]) }, 1);
    return this.engine.transact(async (db) => {
      const tx = db.transaction('artifacts', 'readwrite');
      const refused = await tx
        .objectStore('artifacts')
        .put(record)
        .then(
          () => undefined,
          (error: unknown) => ({ error }),
        );
      await tx.abandon();
      if (refused) throw refused.error;
    });
  }

  private async importOnce(
    batch: ImportBatch,
    artifacts: ArtifactImport[],
    asBlobs: boolean,
    onProgress?: (processed: number) => void,
  ): Promise<ArchiveImportOutcome> {
    const records: ArtifactRecord[] = [];
    for (const a of artifacts) {
      const { body, size } = await toStored(a.body, asBlobs);
      records.push(importedRecord(a, body, size));
    }
    let written = 0;
    const outcome = await this.engine.importSessions(batch, onProgress, {
      stores: ['artifacts'],
      write: async (tx, sessions) => {
        const store = tx.objectStore('artifacts') as ArtifactStore;
        const keyOf = (r: { appName: string; userId: string; scope: string }) =>
          JSON.stringify([r.appName, r.userId, r.scope]);
        await sessionArtifactsCleanup.removed(tx, sessions);
        const writtenScopes = new Set(sessions.map((s) => keyOf({ ...s, scope: s.id })));
        const shared = records.filter((r) => r.scope === USER_SCOPE);
        const stored = await Promise.all(
          shared.map((r) => store.getKey([r.appName, r.userId, r.scope, r.filename, r.version])),
        );
        const keep = new Set(shared.filter((_, i) => stored[i] === undefined));
        for (const r of records) {
          if (r.scope === USER_SCOPE ? !keep.has(r) : !writtenScopes.has(keyOf(r))) continue;
          store.put(r);
          written++;
        }
      },
    });
    return { ...outcome, artifacts: written };
  }

  loadArtifact(request: ArtifactVersionRequest): Promise<LoadedArtifact | undefined> {
    return this.engine.transact(async (db) => {
      const record = await this.find(db.transaction('artifacts').objectStore('artifacts'), request);
      if (!record) return undefined;
      const { body } = record;
      return {
        ...this.describe(record),
        body:
          body.kind === 'bytes'
            ? {
                ...body,
                data: body.data instanceof Blob ? body.data : new Blob([body.data], { type: record.mimeType }),
              }
            : body,
      };
    });
  }

  getArtifactVersion(request: ArtifactVersionRequest): Promise<ArtifactVersion | undefined> {
    return this.engine.transact(async (db) => {
      const record = await this.find(db.transaction('artifacts').objectStore('artifacts'), request);
      return record && this.describe(record);
    });
  }

  listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    const { appName, userId, sessionId, filename } = request;
    return this.engine.transact(async (db) => {
      const records = await db
        .transaction('artifacts')
        .objectStore('artifacts')
        .getAll(versionsRange(appName, userId, scopeOf(sessionId, filename), filename));
      return records.map((r) => this.describe(r));
    });
  }

  /** The session's names and the user's `user:` names, one snapshot, sorted by code unit. */
  listArtifactKeys(request: ArtifactKeyRequest): Promise<string[]> {
    const { appName, userId, sessionId } = request;
    return this.engine.transact(async (db) => {
      const store = db.transaction('artifacts').objectStore('artifacts');
      const [own, shared] = await Promise.all([
        store.getAllKeys(scopeRange(appName, userId, sessionId)),
        store.getAllKeys(scopeRange(appName, userId, USER_SCOPE)),
      ]);
      const names = new Set([...own, ...shared].map((key) => key[3]));
      return [...names].sort(byCodeUnit);
    });
  }

  deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    const { appName, userId, sessionId, filename } = request;
    return this.engine.transact(async (db) => {
      const tx = db.transaction('artifacts', 'readwrite');
      tx.objectStore('artifacts').delete(versionsRange(appName, userId, scopeOf(sessionId, filename), filename));
      await tx.done;
    });
  }

  /**
   * Exact, read from the records' metadata (Blobs are not read): an app's,
   * a user's (their sessions' and `user:` artifacts) or one session's own.
   */
  artifactUsage(request: ArtifactUsageRequest): Promise<ArtifactUsage> {
    const { appName, userId, sessionId } = request;
    const prefix = [
      appName,
      ...(userId !== undefined ? [userId] : []),
      ...(userId !== undefined && sessionId !== undefined ? [sessionId] : []),
    ];
    return this.engine.transact(async (db) => {
      const usage: ArtifactUsage = { artifacts: 0, versions: 0, bytes: 0 };
      let previous = '';
      let cursor = await db.transaction('artifacts').objectStore('artifacts').openCursor(prefixRange(prefix));
      while (cursor) {
        const r = cursor.value;
        const name = JSON.stringify([r.userId, r.scope, r.filename]);
        if (name !== previous) usage.artifacts++;
        previous = name;
        usage.versions++;
        usage.bytes += r.size;
        cursor = await cursor.continue();
      }
      return usage;
    });
  }

  private find(store: ArtifactStore, request: ArtifactVersionRequest): Promise<ArtifactRecord | undefined> {
    const { appName, userId, sessionId, filename, version } = request;
    const scope = scopeOf(sessionId, filename);
    // As in ADK, a number no version has (negative, fractional, NaN) finds nothing.
    if (version !== undefined && !(Number.isSafeInteger(version) && version >= 0)) return Promise.resolve(undefined);
    if (version !== undefined) return store.get([appName, userId, scope, filename, version]);
    return store.openCursor(versionsRange(appName, userId, scope, filename), 'prev').then((c) => c?.value);
  }

  private describe(record: ArtifactRecord): ArtifactVersion {
    const { appName, userId, scope, filename, version, mimeType, customMetadata, createTime, size } = record;
    const path = [
      'apps',
      appName,
      'users',
      userId,
      ...(scope === USER_SCOPE ? [] : ['sessions', scope]),
      'artifacts',
      filename,
      'versions',
      String(version),
    ];
    const uri = `indexeddb://${[this.engine.dbName, ...path].map(encodePart).join('/')}`;
    return {
      version,
      canonicalUri: uri,
      mimeType,
      ...(customMetadata !== undefined ? { customMetadata } : {}),
      createTime,
      size,
    };
  }
}

/**
 * One part of a `canonicalUri`. Names and ids with a lone surrogate are refused, but the database
 * name is not, and a record from before that rule may hold one: `encodeURIComponent` throws a
 * `URIError` on it, so it is written as U+FFFD, and describing a version never throws.
 */
const encodePart = (part: string): string => encodeURIComponent(part.replace(/\p{Cs}/gu, '\uFFFD'));

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
