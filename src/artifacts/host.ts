/**
 * The worker side of the artifact methods: each request is validated again
 * (the page is another realm), then handed to the engine's artifact engine.
 * Blobs arrive by reference inside the structured clone.
 */
import { importBatchSchema, validate } from '../schema.js';
import type { StoreEngine } from '../store/engine.js';
import { ImportChecker } from '../transfer/validate.js';
import { artifactEngineFor } from './engine.js';
import { checkArtifactImports } from './imports.js';
import type { ArtifactBackend } from './protocol.js';
import {
  artifactFileSchema,
  artifactKeySchema,
  artifactUsageRequestSchema,
  artifactVersionRequestSchema,
  artifactWriteSchema,
} from './schema.js';

/** The artifact methods for a host whose engine `current` gives (it throws before hello). */
export function artifactMethods(current: () => StoreEngine): ArtifactBackend {
  const engine = () => artifactEngineFor(current());
  return {
    saveArtifact: (request) => engine().saveArtifact(validate('saveArtifact', artifactWriteSchema, request)),
    loadArtifact: (request) => engine().loadArtifact(validate('loadArtifact', artifactVersionRequestSchema, request)),
    listArtifactKeys: (request) => engine().listArtifactKeys(validate('listArtifactKeys', artifactKeySchema, request)),
    deleteArtifact: (request) => engine().deleteArtifact(validate('deleteArtifact', artifactFileSchema, request)),
    listArtifactVersions: (request) =>
      engine().listArtifactVersions(validate('listArtifactVersions', artifactFileSchema, request)),
    getArtifactVersion: (request) =>
      engine().getArtifactVersion(validate('getArtifactVersion', artifactVersionRequestSchema, request)),
    artifactUsage: (request) => engine().artifactUsage(validate('artifactUsage', artifactUsageRequestSchema, request)),
    importWithArtifacts: async (request, artifacts, onProgress) => {
      const { sessions, onConflict } = validate('importArchive', importBatchSchema, request);
      const checker = new ImportChecker();
      const batch = { sessions: sessions.map((s, i) => checker.check(s, i)), onConflict };
      return engine().importWithArtifacts(batch, checkArtifactImports(batch.sessions, artifacts), onProgress);
    },
  };
}
