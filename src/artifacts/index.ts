/**
 * Artifacts (ADK's `BaseArtifactService`) on the session store's database:
 * `store.artifacts` on every store, bytes kept as Blobs.
 */
export type { Base64Form } from '../core/base64.js';
export type { ArtifactFront, LoadedArtifactBlob } from './front.js';
export type {
  ArchiveImportOutcome,
  ArtifactBackend,
  ArtifactUsage,
  ArtifactVersion,
  LoadedArtifact,
} from './protocol.js';
export type {
  ArtifactFileRequest,
  ArtifactKeyRequest,
  ArtifactPart,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
} from './schema.js';
