/**
 * zod schemas for every artifact request, checked on the page (the front) and
 * again in the worker (the host): the single source of the artifact types.
 */
import { z } from 'zod';
import { checkJson, isPlainObject } from '../json.js';
import { sessionKeySchema } from '../schema.js';

/** Longest accepted filename, in UTF-16 code units. */
export const MAX_FILENAME_LENGTH = 1024;
/** Largest accepted `customMetadata`, in JSON characters. */
export const MAX_METADATA_SIZE = 64 * 1024;
/** Longest accepted `fileUri` of a reference, or MIME type. */
const MAX_URI_LENGTH = 8 * 1024;

/** Why `name` is not an artifact filename, or `null` when it is one. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_FILENAME_LENGTH) return `must be at most ${MAX_FILENAME_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'must not contain control characters (such as \\0)';
  if (name.includes('\\')) return 'must not contain "\\" (use "/" to nest names)';
  const bare = name.startsWith('user:') ? name.slice('user:'.length) : name;
  if (bare.length === 0) return 'must name something after "user:"';
  for (const segment of bare.split('/')) {
    if (segment === '') return 'must not start or end with "/" nor contain "//"';
    if (segment === '.' || segment === '..') return `must not contain a "${segment}" segment`;
  }
  return null;
}

const filename = z.string().superRefine((name, ctx) => {
  const problem = filenameProblem(name);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const version = z.number().int('must be a whole number').min(0, 'must not be negative').max(Number.MAX_SAFE_INTEGER);

const mimeType = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/^[^\s/]+\/[^\s]+$/, 'must be a MIME type such as "image/png"');

const metadata = z
  .custom<Record<string, unknown>>(isPlainObject, 'must be a plain object')
  .superRefine((value, ctx) => {
    const measure = { size: 0 };
    const problem = checkJson(value, measure, { undefinedFieldsAreAbsent: true });
    if (problem) ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
    else if (measure.size > MAX_METADATA_SIZE) {
      ctx.addIssue({ code: 'custom', message: `is larger than the ${MAX_METADATA_SIZE}-character limit` });
    }
  });

const blob = z.custom<Blob>((v) => typeof Blob !== 'undefined' && v instanceof Blob, 'must be a Blob or File');

export const artifactKeySchema = sessionKeySchema;
export const artifactFileSchema = sessionKeySchema.extend({ filename });
export const artifactVersionRequestSchema = artifactFileSchema.extend({ version: version.optional() });

/** A base64 string, standard or URL-safe alphabet, padding optional. */
const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64')
  .refine((s) => s.replace(/=+$/, '').length % 4 !== 1, 'must be base64 (its length is impossible)');

/** ADK's `Part` as an artifact: exactly one of `inlineData`, `text`, `fileData`. */
export const artifactPartSchema = z
  .object({
    text: z.string().optional(),
    inlineData: z
      .object({
        data: base64,
        mimeType: mimeType.optional(),
        displayName: z.string().max(MAX_FILENAME_LENGTH).optional(),
      })
      .optional(),
    fileData: z
      .object({
        fileUri: z.string().min(1).max(MAX_URI_LENGTH),
        mimeType: mimeType.optional(),
        displayName: z.string().max(MAX_FILENAME_LENGTH).optional(),
      })
      .optional(),
  })
  .refine(
    (p) => [p.text !== undefined, p.inlineData !== undefined, p.fileData !== undefined].filter(Boolean).length === 1,
    'must have exactly one of `inlineData`, `text` or `fileData`',
  );

export const saveArtifactRequestSchema = artifactFileSchema.extend({
  artifact: artifactPartSchema,
  customMetadata: metadata.optional(),
});

export const saveArtifactBlobRequestSchema = artifactFileSchema.extend({
  blob,
  mimeType: mimeType.optional(),
  customMetadata: metadata.optional(),
});

/** What travels to the engine (and over the worker boundary): bytes always as a Blob, never base64. */
export const artifactBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bytes'), data: blob, displayName: z.string().max(MAX_FILENAME_LENGTH).optional() }),
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({
    kind: z.literal('file'),
    fileUri: z.string().min(1).max(MAX_URI_LENGTH),
    displayName: z.string().max(MAX_FILENAME_LENGTH).optional(),
  }),
]);

export const artifactWriteSchema = artifactFileSchema.extend({
  body: artifactBodySchema,
  mimeType,
  customMetadata: metadata.optional(),
});

export const artifactUsageRequestSchema = z
  .object({
    appName: sessionKeySchema.shape.appName,
    userId: sessionKeySchema.shape.userId.optional(),
    sessionId: sessionKeySchema.shape.sessionId.optional(),
  })
  .refine((r) => r.sessionId === undefined || r.userId !== undefined, {
    message: 'needs `userId` with `sessionId`',
    path: ['userId'],
  });

export type ArtifactKeyRequest = z.input<typeof artifactKeySchema>;
export type ArtifactFileRequest = z.input<typeof artifactFileSchema>;
export type ArtifactVersionRequest = z.input<typeof artifactVersionRequestSchema>;
export type ArtifactPart = z.input<typeof artifactPartSchema>;
export type SaveArtifactRequest = z.input<typeof saveArtifactRequestSchema>;
export type SaveArtifactBlobRequest = z.input<typeof saveArtifactBlobRequestSchema>;
export type ArtifactBody = z.output<typeof artifactBodySchema>;
export type ArtifactWrite = z.output<typeof artifactWriteSchema>;
export type ArtifactUsageRequest = z.input<typeof artifactUsageRequestSchema>;

/** Most artifact versions one import takes. */
export const MAX_IMPORT_ARTIFACTS = 100_000;

/** One version as an archive carries it: what a save sends, plus its number and creation time. */
export const artifactImportSchema = artifactWriteSchema.extend({
  version,
  createTime: z.number().int().min(0).max(8.64e15),
});

export const artifactImportListSchema = z
  .array(artifactImportSchema)
  .max(MAX_IMPORT_ARTIFACTS, `must hold at most ${MAX_IMPORT_ARTIFACTS} artifact versions`);

export type ArtifactImport = z.output<typeof artifactImportSchema>;
