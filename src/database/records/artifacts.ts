/**
 * How an artifact version is kept: one record per version in the `artifacts`
 * object store, keyed `[appName, userId, scope, filename, version]`. `scope` is
 * the session id, or `USER_SCOPE` for `user:` names; session ids are never
 * empty, so no session (not even one named `user`) shares the user's scope.
 */

import type { Base64Form } from '../../core/base64.js';
import type { PartFields } from '../../core/part-shape.js';

/** The `scope` of `user:` artifacts. */
export const USER_SCOPE = '';

/** Where an artifact lives: its session, or for a `user:` name the user's scope. */
export const scopeOf = (sessionId: string, filename: string): string =>
  filename.startsWith('user:') ? USER_SCOPE : sessionId;

export type ArtifactKey = [appName: string, userId: string, scope: string, filename: string, version: number];

/**
 * What a version holds: bytes (a Blob, or an ArrayBuffer where Blobs fail), text, or a reference.
 * A version saved as a `Part` also keeps the Part's other fields (`part`, see part.ts) and how its
 * base64 was written (`base64`); versions saved as Blobs, and by releases before these fields, have
 * neither, and load as they always did.
 */
export type StoredBody =
  | { kind: 'bytes'; data: Blob | ArrayBuffer; displayName?: string; part?: PartFields; base64?: Base64Form }
  | { kind: 'text'; text: string; part?: PartFields }
  | { kind: 'file'; fileUri: string; displayName?: string; part?: PartFields };

export interface ArtifactRecord {
  appName: string;
  userId: string;
  scope: string;
  filename: string;
  version: number;
  mimeType: string;
  /** Bytes of the payload (UTF-8 bytes for text, 0 for a reference). */
  size: number;
  /** Epoch milliseconds. */
  createTime: number;
  customMetadata?: Record<string, unknown>;
  body: StoredBody;
}
