/**
 * The artifact requests behind the store's boundary check: each one validated
 * (the page is another realm, or an app's code in this one), ADK's `Part`
 * turned into a body, then handed to the artifact engine. A worker host serves
 * it and an in-thread store calls it, the same way; Blobs arrive by reference.
 */

import { base64ToBytes } from '../core/base64.js';
import { InvalidInputError } from '../core/errors.js';
import { withJsonField } from '../core/json.js';
import { validate } from '../core/schema.js';
import { checkImport } from '../sessions/checked.js';
import { base64Form } from './base64-form.js';
import { type ArtifactEngineOptions, type ArtifactHost, artifactEngineFor } from './engine.js';
import { checkArtifactImports } from './imports.js';
import { keptFields, PART_JSON } from './part.js';
import type { ArtifactBackend } from './protocol.js';
import {
  type ArtifactBody,
  artifactFileSchema,
  artifactKeySchema,
  artifactUsageRequestSchema,
  artifactVersionRequestSchema,
  artifactWriteSchema,
  saveArtifactBlobRequestSchema,
  saveArtifactRequestSchema,
} from './schema.js';

const OCTET_STREAM = 'application/octet-stream';
const TEXT = 'text/plain';

/**
 * The artifact methods of the store `host()` gives (it may throw, as a host's
 * does before hello). A store's artifact engine keeps the options of whoever
 * made it first (see `artifactEngineFor`): given `options` (a store in this
 * thread, its engine at hand), it is made now, with them; a worker host passes
 * none and its first call makes it.
 */
export function checked(host: () => ArtifactHost, options?: ArtifactEngineOptions): ArtifactBackend {
  const made = options && artifactEngineFor(host(), options);
  const engine = () => made ?? artifactEngineFor(host());
  return {
    saveArtifact: async (request) => {
      // The Part in its JSON form (a Date becomes its string) is what is checked and kept.
      const input = withJsonField(request, 'artifact', PART_JSON);
      const { artifact, customMetadata, ...key } = validate('saveArtifact', saveArtifactRequestSchema, input);
      const raw = (input as { artifact: unknown }).artifact;
      let body: ArtifactBody;
      let mimeType: string;
      if (artifact.inlineData) {
        const { data, displayName } = artifact.inlineData;
        mimeType = artifact.inlineData.mimeType ?? OCTET_STREAM;
        let bytes: Uint8Array<ArrayBuffer>;
        try {
          bytes = base64ToBytes(data);
        } catch {
          throw new InvalidInputError('saveArtifact: artifact.inlineData.data: must be base64');
        }
        const form = base64Form(data);
        body = {
          kind: 'bytes',
          data: new Blob([bytes], { type: mimeType }),
          ...(displayName ? { displayName } : {}),
          part: keptFields('saveArtifact', raw, 'bytes'),
          ...(form !== undefined ? { base64: form } : {}),
        };
      } else if (artifact.fileData) {
        const { fileUri, displayName } = artifact.fileData;
        mimeType = artifact.fileData.mimeType ?? OCTET_STREAM;
        body = {
          kind: 'file',
          fileUri,
          ...(displayName ? { displayName } : {}),
          part: keptFields('saveArtifact', raw, 'file'),
        };
      } else {
        mimeType = TEXT;
        body = { kind: 'text', text: artifact.text ?? '', part: keptFields('saveArtifact', raw, 'text') };
      }
      return engine().saveArtifact({
        ...key,
        body,
        mimeType,
        ...(customMetadata !== undefined ? { customMetadata } : {}),
      });
    },
    saveArtifactBlob: async (request, displayName) => {
      const { blob, mimeType, customMetadata, ...key } = validate(
        'saveArtifactBlob',
        saveArtifactBlobRequestSchema,
        request,
      );
      const name = displayName ?? (blob as Partial<File>).name;
      const write = {
        ...key,
        body: { kind: 'bytes', data: blob, ...(name ? { displayName: name } : {}) },
        mimeType: mimeType ?? (blob.type || OCTET_STREAM),
        ...(customMetadata !== undefined ? { customMetadata } : {}),
      };
      // The name arrives beside the request, from a page that is trusted no more than its request.
      return engine().saveArtifact(validate('saveArtifactBlob', artifactWriteSchema, write));
    },
    loadArtifact: async (r) => engine().loadArtifact(validate('loadArtifact', artifactVersionRequestSchema, r)),
    listArtifactKeys: async (r) => engine().listArtifactKeys(validate('listArtifactKeys', artifactKeySchema, r)),
    deleteArtifact: async (r) => engine().deleteArtifact(validate('deleteArtifact', artifactFileSchema, r)),
    listArtifactVersions: async (r) =>
      engine().listArtifactVersions(validate('listArtifactVersions', artifactFileSchema, r)),
    getArtifactVersion: async (r) =>
      engine().getArtifactVersion(validate('getArtifactVersion', artifactVersionRequestSchema, r)),
    artifactUsage: async (r) => engine().artifactUsage(validate('artifactUsage', artifactUsageRequestSchema, r)),
    importWithArtifacts: async (request, artifacts, onProgress) => {
      const batch = await checkImport('importArchive', request);
      return engine().importWithArtifacts(batch, checkArtifactImports(batch.sessions, artifacts), onProgress);
    },
  };
}
