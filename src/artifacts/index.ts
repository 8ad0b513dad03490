/**
 * Artifacts (ADK's `BaseArtifactService`) on the session store's database:
 * `store.artifacts` on every store, bytes kept as Blobs.
 */
export { ArtifactFront, type LoadedArtifactBlob } from './front.js';
export type {
  ArchiveImportOutcome,
  ArtifactBackend,
  ArtifactUsage,
  ArtifactVersion,
  LoadedArtifact,
} from './protocol.js';
export {
  type ArtifactFileRequest,
  type ArtifactKeyRequest,
  type ArtifactPart,
  type ArtifactUsageRequest,
  type ArtifactVersionRequest,
  MAX_FILENAME_LENGTH,
  MAX_METADATA_SIZE,
  type SaveArtifactBlobRequest,
  type SaveArtifactRequest,
} from './schema.js';
