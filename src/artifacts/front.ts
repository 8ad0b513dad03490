/**
 * The artifact API every store offers as `store.artifacts`: ADK's
 * `BaseArtifactService` methods (a `Part` in, a `Part` out) and a Blob-native
 * pair beside them. Every request is validated here before anything is sent;
 * base64 exists only inside the `Part` methods, so the Blob path never sees it.
 */
import { InvalidInputError } from '../errors.js';
import { validate } from '../schema.js';
import { guardedProgress, prepareImport, type SessionImportOptions } from '../transfer/prepare.js';
import type { Session } from '../types.js';
import { base64ToBytes, bytesToBase64 } from './base64.js';
import { checkArtifactImports } from './imports.js';
import type { ArchiveImportOutcome, ArtifactBackend, ArtifactUsage, ArtifactVersion } from './protocol.js';
import {
  type ArtifactBody,
  type ArtifactFileRequest,
  type ArtifactKeyRequest,
  type ArtifactPart,
  type ArtifactUsageRequest,
  type ArtifactVersionRequest,
  artifactFileSchema,
  artifactKeySchema,
  artifactUsageRequestSchema,
  artifactVersionRequestSchema,
  type SaveArtifactBlobRequest,
  type SaveArtifactRequest,
  saveArtifactBlobRequestSchema,
  saveArtifactRequestSchema,
} from './schema.js';

const OCTET_STREAM = 'application/octet-stream';
const TEXT = 'text/plain';

/** What `loadArtifactBlob` gives: the version's metadata, and its payload as a Blob (or a reference's URI). */
export interface LoadedArtifactBlob extends ArtifactVersion {
  /** What was saved: bytes, text (here as a UTF-8 Blob) or a `fileData` reference. */
  kind: 'bytes' | 'text' | 'file';
  /** Bytes, or text as UTF-8; absent for a `fileData` reference. */
  blob?: Blob;
  /** The name the bytes came with (a `File`'s, or `inlineData.displayName`). */
  displayName?: string;
  /** Only for a `fileData` reference. */
  fileUri?: string;
}

export class ArtifactFront {
  constructor(private readonly backend: ArtifactBackend) {}

  /** ADK's `saveArtifact`: stores `artifact` as the next version (from 0) and resolves its number. */
  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const { artifact, customMetadata, ...key } = validate('saveArtifact', saveArtifactRequestSchema, request);
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
      body = { kind: 'bytes', data: new Blob([bytes], { type: mimeType }), ...(displayName ? { displayName } : {}) };
    } else if (artifact.fileData) {
      const { fileUri, displayName } = artifact.fileData;
      mimeType = artifact.fileData.mimeType ?? OCTET_STREAM;
      body = { kind: 'file', fileUri, ...(displayName ? { displayName } : {}) };
    } else {
      mimeType = TEXT;
      body = { kind: 'text', text: artifact.text ?? '' };
    }
    return this.backend.saveArtifact({
      ...key,
      body,
      mimeType,
      ...(customMetadata !== undefined ? { customMetadata } : {}),
    });
  }

  /** ADK's `loadArtifact`: the version (latest when omitted) as a `Part`, or `undefined`. */
  async loadArtifact(request: ArtifactVersionRequest): Promise<ArtifactPart | undefined> {
    const loaded = await this.backend.loadArtifact(validate('loadArtifact', artifactVersionRequestSchema, request));
    if (!loaded) return undefined;
    const { body, mimeType } = loaded;
    switch (body.kind) {
      case 'text':
        return { text: body.text };
      case 'file':
        return {
          fileData: { fileUri: body.fileUri, mimeType, ...(body.displayName ? { displayName: body.displayName } : {}) },
        };
      case 'bytes': {
        const data = bytesToBase64(new Uint8Array(await body.data.arrayBuffer()));
        return { inlineData: { data, mimeType, ...(body.displayName ? { displayName: body.displayName } : {}) } };
      }
    }
  }

  /**
   * Stores a Blob or `File` as the next version, without ever encoding it:
   * through a worker the Blob crosses by reference. `mimeType` defaults to the
   * Blob's own type (else `application/octet-stream`); a `File`'s name is kept.
   */
  async saveArtifactBlob(request: SaveArtifactBlobRequest): Promise<number> {
    const { blob, mimeType, customMetadata, ...key } = validate(
      'saveArtifactBlob',
      saveArtifactBlobRequestSchema,
      request,
    );
    const name = typeof (blob as Partial<File>).name === 'string' ? (blob as File).name : undefined;
    return this.backend.saveArtifact({
      ...key,
      body: { kind: 'bytes', data: blob, ...(name ? { displayName: name } : {}) },
      mimeType: mimeType ?? (blob.type || OCTET_STREAM),
      ...(customMetadata !== undefined ? { customMetadata } : {}),
    });
  }

  /** The version (latest when omitted) as a Blob, ready for `URL.createObjectURL`; `undefined` when missing. */
  async loadArtifactBlob(request: ArtifactVersionRequest): Promise<LoadedArtifactBlob | undefined> {
    const loaded = await this.backend.loadArtifact(validate('loadArtifactBlob', artifactVersionRequestSchema, request));
    if (!loaded) return undefined;
    const { body, ...version } = loaded;
    switch (body.kind) {
      case 'bytes':
        return {
          ...version,
          kind: 'bytes',
          blob: body.data,
          ...(body.displayName ? { displayName: body.displayName } : {}),
        };
      case 'text':
        return { ...version, kind: 'text', blob: new Blob([body.text], { type: version.mimeType }) };
      case 'file':
        return {
          ...version,
          kind: 'file',
          fileUri: body.fileUri,
          ...(body.displayName ? { displayName: body.displayName } : {}),
        };
    }
  }

  /** The session's artifact names and the user's `user:` names, sorted by code unit. */
  async listArtifactKeys(request: ArtifactKeyRequest): Promise<string[]> {
    return this.backend.listArtifactKeys(validate('listArtifactKeys', artifactKeySchema, request));
  }

  /** Removes every version; a no-op for a missing name. A later save starts again at version 0. */
  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    return this.backend.deleteArtifact(validate('deleteArtifact', artifactFileSchema, request));
  }

  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    const versions = await this.backend.listArtifactVersions(validate('listVersions', artifactFileSchema, request));
    return versions.map((v) => v.version);
  }

  async listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    return this.backend.listArtifactVersions(validate('listArtifactVersions', artifactFileSchema, request));
  }

  async getArtifactVersion(request: ArtifactVersionRequest): Promise<ArtifactVersion | undefined> {
    return this.backend.getArtifactVersion(validate('getArtifactVersion', artifactVersionRequestSchema, request));
  }

  /**
   * Writes whole sessions and their artifact versions (numbers and creation
   * times kept) in one transaction: everything is validated first, and on any
   * error nothing is written. What `importArchive` calls; `importSessions`'s
   * rules apply to the sessions. A written session's stored artifacts are
   * replaced; a skipped one's are left out; stored `user:` versions stay.
   */
  async importWithArtifacts(
    sessions: readonly Session[],
    artifacts: readonly unknown[],
    options: SessionImportOptions = {},
  ): Promise<ArchiveImportOutcome> {
    const batch = await prepareImport(sessions, options);
    const checked = checkArtifactImports(batch.sessions, artifacts);
    options.signal?.throwIfAborted();
    return this.backend.importWithArtifacts(batch, checked, guardedProgress(options.onProgress));
  }

  /** Artifacts, versions and bytes of an app, a user (sessions and `user:` names) or one session. */
  async artifactUsage(request: ArtifactUsageRequest): Promise<ArtifactUsage> {
    return this.backend.artifactUsage(validate('artifactUsage', artifactUsageRequestSchema, request));
  }
}
