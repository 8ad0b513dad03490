/**
 * The artifact API every store offers as `store.artifacts`: ADK's
 * `BaseArtifactService` methods (a `Part` in, a `Part` out) and a Blob-native
 * pair beside them. Requests go to the store as given: it validates them (in
 * its worker, or behind the in-thread boundary check). Base64 exists only for
 * the `Part` methods, so the Blob path never sees it.
 */

import { type Base64Form, bytesToBase64As } from '../core/base64.js';
import { partOf } from '../core/part-shape.js';
import { guardedProgress, prepareImport, type SessionImportOptions } from '../sessions/import-options.js';
import type { Session } from '../types.js';
import type { ArchiveImportOutcome, ArtifactBackend, ArtifactUsage, ArtifactVersion } from './protocol.js';
import type {
  ArtifactFileRequest,
  ArtifactKeyRequest,
  ArtifactPart,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
} from './schema.js';

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
  /** For a version saved as a `Part`: its fields besides the payload, as given (what an archive carries). */
  part?: Record<string, unknown>;
  /** For bytes saved as a `Part` whose base64 was not standard padded: how it was written. */
  base64?: Base64Form;
}

/**
 * The artifact API every store offers as `store.artifacts`: ADK's `BaseArtifactService` methods
 * (a `Part` in, a `Part` out) and a Blob-native pair beside them.
 */
export interface ArtifactFront {
  /** ADK's `saveArtifact`: stores `artifact` as the next version (from 0) and resolves its number. */
  saveArtifact(request: SaveArtifactRequest): Promise<number>;
  /**
   * ADK's `loadArtifact`: the version (latest when omitted) as a `Part`, or `undefined`. A Part
   * comes back as it was saved: every field, base64 written as it was. A version saved as a Blob
   * (or by a release that kept only the payload) comes as a Part built from its record.
   */
  loadArtifact(request: ArtifactVersionRequest): Promise<ArtifactPart | undefined>;
  /**
   * Stores a Blob or `File` as the next version, without ever encoding it:
   * through a worker the Blob crosses by reference. `mimeType` defaults to the
   * Blob's own type (else `application/octet-stream`); a `File`'s name is kept.
   */
  saveArtifactBlob(request: SaveArtifactBlobRequest): Promise<number>;
  /** The version (latest when omitted) as a Blob, ready for `URL.createObjectURL`; `undefined` when missing. */
  loadArtifactBlob(request: ArtifactVersionRequest): Promise<LoadedArtifactBlob | undefined>;
  /** ADK's `listArtifactKeys`: the session's artifact names and the user's `user:` names, sorted by code unit. */
  listArtifactKeys(request: ArtifactKeyRequest): Promise<string[]>;
  /** ADK's `deleteArtifact`: removes every version; a no-op for a missing name. A later save starts again at version 0. */
  deleteArtifact(request: ArtifactFileRequest): Promise<void>;
  /** ADK's `listVersions`: the artifact's version numbers, oldest first (empty for a missing name). */
  listVersions(request: ArtifactFileRequest): Promise<number[]>;
  /** ADK's `listArtifactVersions`: every version's metadata, oldest first. */
  listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]>;
  /** ADK's `getArtifactVersion`: one version's metadata (latest when omitted), or `undefined`. */
  getArtifactVersion(request: ArtifactVersionRequest): Promise<ArtifactVersion | undefined>;
  /**
   * Writes whole sessions and their artifact versions (numbers and creation
   * times kept) in one transaction: everything is validated first, and on any
   * error nothing is written. What `importArchive` calls; `importSessions`'s
   * rules apply to the sessions. A written session's stored artifacts are
   * replaced; a skipped one's are left out; stored `user:` versions stay.
   */
  importWithArtifacts(
    sessions: readonly Session[],
    artifacts: readonly unknown[],
    options?: SessionImportOptions,
  ): Promise<ArchiveImportOutcome>;
  /** Artifacts, versions and bytes of an app, a user (sessions and `user:` names) or one session. */
  artifactUsage(request: ArtifactUsageRequest): Promise<ArtifactUsage>;
}

/** The `ArtifactFront` over `backend`: a store builds one; nothing else constructs it. */
export function artifactFrontOver(backend: ArtifactBackend): ArtifactFront {
  return new BackedArtifactFront(backend);
}

/** The methods' contracts are on `ArtifactFront`. */
class BackedArtifactFront implements ArtifactFront {
  constructor(private readonly backend: ArtifactBackend) {}

  async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    return this.backend.saveArtifact(request);
  }

  async loadArtifact(request: ArtifactVersionRequest): Promise<ArtifactPart | undefined> {
    const loaded = await this.backend.loadArtifact(request);
    if (!loaded) return undefined;
    const { body, mimeType } = loaded;
    const named = 'displayName' in body && body.displayName ? { displayName: body.displayName } : {};
    switch (body.kind) {
      case 'text':
        return body.part ? (partOf(body.part, 'text', body.text) as ArtifactPart) : { text: body.text };
      case 'file':
        return body.part
          ? (partOf(body.part, 'file', body.fileUri) as ArtifactPart)
          : { fileData: { fileUri: body.fileUri, mimeType, ...named } };
      case 'bytes': {
        const data = bytesToBase64As(new Uint8Array(await body.data.arrayBuffer()), body.base64);
        return body.part
          ? (partOf(body.part, 'bytes', data) as ArtifactPart)
          : { inlineData: { data, mimeType, ...named } };
      }
    }
  }

  async saveArtifactBlob(request: SaveArtifactBlobRequest): Promise<number> {
    // A File's name is read here: a File may reach a worker as a bare Blob.
    let name: string | undefined;
    try {
      const { blob } = request;
      if (blob instanceof Blob && typeof (blob as Partial<File>).name === 'string') name = (blob as File).name;
    } catch {
      // An unreadable request: the store says what is wrong with it.
    }
    return this.backend.saveArtifactBlob(request, name);
  }

  async loadArtifactBlob(request: ArtifactVersionRequest): Promise<LoadedArtifactBlob | undefined> {
    const loaded = await this.backend.loadArtifact(request);
    if (!loaded) return undefined;
    const { body, ...version } = loaded;
    const kept = body.part ? { part: body.part } : {};
    switch (body.kind) {
      case 'bytes':
        return {
          ...version,
          kind: 'bytes',
          blob: body.data,
          ...(body.displayName ? { displayName: body.displayName } : {}),
          ...kept,
          ...(body.base64 !== undefined ? { base64: body.base64 } : {}),
        };
      case 'text':
        return { ...version, kind: 'text', blob: new Blob([body.text], { type: version.mimeType }), ...kept };
      case 'file':
        return {
          ...version,
          kind: 'file',
          fileUri: body.fileUri,
          ...(body.displayName ? { displayName: body.displayName } : {}),
          ...kept,
        };
    }
  }

  async listArtifactKeys(request: ArtifactKeyRequest): Promise<string[]> {
    return this.backend.listArtifactKeys(request);
  }

  async deleteArtifact(request: ArtifactFileRequest): Promise<void> {
    return this.backend.deleteArtifact(request);
  }

  async listVersions(request: ArtifactFileRequest): Promise<number[]> {
    const versions = await this.backend.listArtifactVersions(request);
    return versions.map((v) => v.version);
  }

  async listArtifactVersions(request: ArtifactFileRequest): Promise<ArtifactVersion[]> {
    return this.backend.listArtifactVersions(request);
  }

  async getArtifactVersion(request: ArtifactVersionRequest): Promise<ArtifactVersion | undefined> {
    return this.backend.getArtifactVersion(request);
  }

  async importWithArtifacts(
    sessions: readonly Session[],
    artifacts: readonly unknown[],
    options: SessionImportOptions = {},
  ): Promise<ArchiveImportOutcome> {
    return this.backend.importWithArtifacts(
      prepareImport(sessions, options),
      artifacts,
      guardedProgress(options.onProgress),
    );
  }

  async artifactUsage(request: ArtifactUsageRequest): Promise<ArtifactUsage> {
    return this.backend.artifactUsage(request);
  }
}
