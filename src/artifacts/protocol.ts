/**
 * What the artifact front asks of an engine (in this thread, or in a worker
 * behind the host). Every value is structured-clone safe; bytes travel as Blobs,
 * which cross `postMessage` by reference.
 */
import type { MethodTable } from '../core/methods.js';
import type { ImportBatch, ImportOutcome } from '../sessions/protocol.js';
import type {
  ArtifactBody,
  ArtifactFileRequest,
  ArtifactKeyRequest,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
} from './schema.js';

/** ADK's `ArtifactVersion`, with what this store always knows besides. */
export interface ArtifactVersion {
  /** The version number: 0 for the first save of a name, then one more per save. */
  version: number;
  /** `indexeddb://<db>/apps/<app>/users/<user>[/sessions/<id>]/artifacts/<name>/versions/<n>`, parts URI-encoded. */
  canonicalUri: string;
  /** Recorded for every kind: `text/plain` for text, the given type (or `application/octet-stream`) for bytes. */
  mimeType: string;
  /** What the save was given as `customMetadata`. */
  customMetadata?: Record<string, unknown>;
  /** Epoch milliseconds (adk-python has seconds). */
  createTime: number;
  /** Bytes of the payload: UTF-8 bytes for text, 0 for a `fileData` reference. */
  size: number;
}

/** One version with its payload; bytes always as a Blob, whatever they are stored as. */
export interface LoadedArtifact extends ArtifactVersion {
  body: ArtifactBody;
}

/** What a scope holds: distinct names, versions over all of them, and their bytes. */
export interface ArtifactUsage {
  /** Distinct artifact names. */
  artifacts: number;
  /** Versions, over all those names. */
  versions: number;
  /** Bytes of those versions' payloads (text as UTF-8, 0 for references). */
  bytes: number;
}

/** An import's outcome, with the artifact versions written. */
export interface ArchiveImportOutcome extends ImportOutcome {
  /** Artifact versions written. */
  artifacts: number;
}

/** The artifact calls, by name, with their callbacks' positions (see `MethodTable`): what the host serves and a forwarding backend forwards. */
export const ARTIFACT_METHODS = {
  saveArtifact: 0,
  saveArtifactBlob: 0,
  loadArtifact: 0,
  listArtifactKeys: 0,
  deleteArtifact: 0,
  listArtifactVersions: 0,
  getArtifactVersion: 0,
  artifactUsage: 0,
  importWithArtifacts: 2,
} as const satisfies MethodTable<ArtifactBackend>;

/**
 * What the page-side front asks of the store, requests as the caller gave them:
 * the boundary check (`checked` in checked.ts) validates and converts them.
 */
export interface ArtifactBackend {
  /** Stores ADK's `Part` as a new version, numbered inside the write transaction; resolves its number. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /** The same for a Blob or `File`, which crosses to a worker by reference; `name` is a `File`'s, read by the page. */
  saveArtifactBlob(request: SaveArtifactBlobRequest, name?: string): Promise<number>;
  loadArtifact(request: ArtifactVersionRequest): Promise<LoadedArtifact | undefined>;
  listArtifactKeys(request: ArtifactKeyRequest): Promise<string[]>;
  deleteArtifact(request: ArtifactFileRequest): Promise<void>;
  listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]>;
  getArtifactVersion(request: ArtifactVersionRequest): Promise<ArtifactVersion | undefined>;
  artifactUsage(request: ArtifactUsageRequest): Promise<ArtifactUsage>;
  /**
   * Writes whole sessions and their artifacts in one transaction: all of them
   * or none. A written session's stored artifacts are replaced by the
   * imported ones; a skipped session's are left out; a `user:` version that is
   * already stored stays as it is.
   */
  importWithArtifacts(
    batch: ImportBatch,
    artifacts: readonly unknown[],
    onProgress?: (processed: number) => void,
  ): Promise<ArchiveImportOutcome>;
}
