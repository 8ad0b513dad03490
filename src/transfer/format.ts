/**
 * The export file: one JSON document,
 * `{"format":"adk-sessions","version":1,"exportedAt":<ms>,"sessions":[<Session>, ...]}`,
 * where each session is the object ADK's API server returns for it. An import
 * also takes a bare array of sessions, or one session object.
 */
import * as z from 'zod/mini';
import { InvalidInputError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';
import { validate } from '../core/schema.js';
import type { Session } from '../types.js';

/** The `format` field of an export document. */
export const EXPORT_FORMAT = 'adk-sessions';
/** The `version` field of the export documents this release writes. */
export const EXPORT_VERSION = 1;

/** What `exportSessions` writes. */
export interface ExportDocument {
  /** Always `EXPORT_FORMAT`: what the file is. */
  format: typeof EXPORT_FORMAT;
  /** `EXPORT_VERSION`: the document's layout. */
  version: typeof EXPORT_VERSION;
  /** When the export started, in epoch ms. Informational: an import ignores it. */
  exportedAt: number;
  /** Oldest first within each app; apps in name order. */
  sessions: Session[];
}

/** The document around the sessions; the sessions themselves are checked one by one on import. */
export const exportDocumentSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { error: `must be "${EXPORT_FORMAT}"` }),
  version: z.literal(EXPORT_VERSION, { error: `must be ${EXPORT_VERSION}, the version this library reads` }),
  exportedAt: z.optional(z.number()),
  sessions: z.array(z.unknown()),
});

/** The opening of an export document, up to its sessions array; `documentEnd` closes it. */
export function documentStart(exportedAt: number): string {
  return `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"exportedAt":${exportedAt},"sessions":[`;
}
export const documentEnd = '\n]}\n';

/**
 * The sessions a parsed import file holds, whichever accepted shape it has: an
 * export document (an object with `format` or `sessions`), a bare array of
 * sessions, or a single session object. The sessions are not checked here.
 */
export function sessionsOf(document: unknown): unknown[] {
  if (Array.isArray(document)) return document;
  if (!isPlainObject(document)) {
    throw new InvalidInputError(
      `importSessions: file: must be an export document ({"format":"${EXPORT_FORMAT}",...}), an array of sessions or one session object`,
    );
  }
  if (!Object.hasOwn(document, 'format') && !Object.hasOwn(document, 'sessions')) return [document];
  validate('importSessions', exportDocumentSchema, document);
  return document.sessions as unknown[];
}
