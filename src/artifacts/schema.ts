/**
 * zod schemas for every artifact request, checked on the page (the front) and
 * again in the worker (the host): the single source of the artifact types.
 */
import * as z from 'zod/mini';
import type { Base64Form } from '../core/base64.js';
import { hasLoneSurrogate } from '../core/ids.js';
import { checkJson, isPlainObject } from '../core/json.js';
import { MAX_FILENAME_LENGTH, MAX_METADATA_SIZE } from '../core/limits.js';
import { atMostUnits, sessionKeySchema } from '../core/schema.js';
import { fieldsProblem } from './part.js';

/** Longest accepted `fileUri` of a reference, or MIME type. */
const MAX_URI_LENGTH = 8 * 1024;

/** Why `name` is not an artifact filename, or `null` when it is one. */
export function filenameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > MAX_FILENAME_LENGTH) return `must be at most ${MAX_FILENAME_LENGTH} characters`;
  // C0, DEL and C1 (U+0080-U+009F, such as U+0085 NEXT LINE): no file system or URI wants them in a name.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'must not contain control characters (such as \\0)';
  // ADK's services throw a URIError for one (they encode names into paths), and so would `canonicalUri`.
  if (hasLoneSurrogate(name)) return 'must be well-formed UTF-16 (holds a lone surrogate)';
  if (name.includes('\\')) return 'must not contain "\\" (use "/" to nest names)';
  const bare = name.startsWith('user:') ? name.slice('user:'.length) : name;
  if (bare.length === 0) return 'must name something after "user:"';
  for (const segment of bare.split('/')) {
    if (segment === '') return 'must not start or end with "/" nor contain "//"';
    if (segment === '.' || segment === '..') return `must not contain a "${segment}" segment`;
  }
  return null;
}

const opt = z.optional;

const filename = z.string().check(
  z.superRefine((name, ctx) => {
    const problem = filenameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** A version as saved or imported. */
const version = z
  .number()
  .check(
    z.int('must be a whole number'),
    z.minimum(0, 'must not be negative'),
    z.maximum(Number.MAX_SAFE_INTEGER, 'is too large'),
  );

/**
 * A version asked for: any number, as in ADK, where one that no version has
 * (negative, fractional, NaN) finds nothing rather than being an error.
 */
const wantedVersion = z.custom<number>((v) => typeof v === 'number', 'must be a number');

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
/**
 * `type/subtype`, then RFC 9110 parameters: `;` with optional spaces or tabs
 * around it, values as tokens or quoted strings (`text/html; charset=utf-8`,
 * `multipart/mixed; boundary="a b"`). Type and subtype keep the earlier, looser
 * rule (any characters but whitespace, `/` in the type), so that every type a
 * store already holds or an archive carries is still taken.
 */
const MIME_TYPE = new RegExp(`^[^\\s/;]+/[^\\s;]+(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`);
const LOOSE_MIME_TYPE = /^[^\s/]+\/[^\s]+$/;

const mimeType = z.string().check(
  z.minLength(1, 'must not be empty'),
  z.maxLength(255, 'must be at most 255 characters'),
  z.refine((s) => LOOSE_MIME_TYPE.test(s) || MIME_TYPE.test(s), 'must be a MIME type such as "image/png"'),
);

const metadata = z.custom<Record<string, unknown>>(isPlainObject, 'must be a plain object').check(
  z.superRefine((value, ctx) => {
    const measure = { size: 0 };
    const problem = checkJson(value, measure, { undefinedFieldsAreAbsent: true });
    if (problem) ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
    else if (measure.size > MAX_METADATA_SIZE) {
      ctx.addIssue({ code: 'custom', message: `is larger than the ${MAX_METADATA_SIZE}-character limit` });
    }
  }),
);

const blob = z.custom<Blob>((v) => typeof Blob !== 'undefined' && v instanceof Blob, 'must be a Blob or File');

const displayName = () => opt(z.string().check(atMostUnits(MAX_FILENAME_LENGTH)));
const fileUri = () =>
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_URI_LENGTH, `must be at most ${MAX_URI_LENGTH} characters`),
    );

export const artifactKeySchema = sessionKeySchema;
export const artifactFileSchema = z.extend(sessionKeySchema, { filename });
export const artifactVersionRequestSchema = z.extend(artifactFileSchema, { version: opt(wantedVersion) });

/** A base64 string, standard or URL-safe alphabet, padding optional. */
const base64 = z.string().check(
  z.regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64'),
  z.refine((s) => s.replace(/=+$/, '').length % 4 !== 1, 'must be base64 (its length is impossible)'),
);

/**
 * ADK's `Part` as an artifact: exactly one of `inlineData`, `text`, `fileData`.
 * What the store needs is checked here; the Part's other fields are kept as
 * given (see part.ts), so zod's stripped copy is read only for the payload.
 */
export const artifactPartSchema = z
  .object({
    text: opt(z.string()),
    inlineData: opt(
      z.object({
        data: base64,
        mimeType: opt(mimeType),
        displayName: displayName(),
      }),
    ),
    fileData: opt(
      z.object({
        fileUri: fileUri(),
        mimeType: opt(mimeType),
        displayName: displayName(),
      }),
    ),
  })
  .check(
    z.refine(
      (p) => [p.text !== undefined, p.inlineData !== undefined, p.fileData !== undefined].filter(Boolean).length === 1,
      'must have exactly one of `inlineData`, `text` or `fileData`',
    ),
  );

export const saveArtifactRequestSchema = z.extend(artifactFileSchema, {
  artifact: artifactPartSchema,
  customMetadata: opt(metadata),
});

export const saveArtifactBlobRequestSchema = z.extend(artifactFileSchema, {
  blob,
  mimeType: opt(mimeType),
  customMetadata: opt(metadata),
});

/** What travels to the engine (and over the worker boundary): bytes always as a Blob, never base64. */
const base64Form = z.union([
  z.enum(['url', 'unpadded', 'url-unpadded']),
  z.object({ verbatim: base64 }),
]) as z.ZodMiniType<Base64Form>;

/** A saved Part's fields besides its payload (absent for a Blob save, and in records of earlier releases). */
const partFields = (kind: 'bytes' | 'text' | 'file') =>
  opt(
    z.custom<Record<string, unknown>>().check(
      z.superRefine((fields, ctx) => {
        const problem = fieldsProblem(fields, kind);
        if (problem) ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
      }),
    ),
  );

// The tag first: a refused body is named by the option its tag picks (core/schema.ts, `meant`).
export const artifactBodySchema = z.union([
  z.object({
    kind: z.literal('bytes'),
    data: blob,
    displayName: displayName(),
    part: partFields('bytes'),
    /** How `inlineData.data` was written, when not standard padded base64. */
    base64: opt(base64Form),
  }),
  z.object({ kind: z.literal('text'), text: z.string(), part: partFields('text') }),
  z.object({ kind: z.literal('file'), fileUri: fileUri(), displayName: displayName(), part: partFields('file') }),
]);

export const artifactWriteSchema = z.extend(artifactFileSchema, {
  body: artifactBodySchema,
  mimeType,
  customMetadata: opt(metadata),
});

export const artifactUsageRequestSchema = z
  .object({
    appName: sessionKeySchema.shape.appName,
    userId: opt(sessionKeySchema.shape.userId),
    sessionId: opt(sessionKeySchema.shape.sessionId),
  })
  .check(
    z.refine((r) => r.sessionId === undefined || r.userId !== undefined, {
      message: 'needs `userId` with `sessionId`',
      path: ['userId'],
    }),
  );

// The public request types are declared in public/artifacts.ts; test/types/named-types.test-d.ts checks them against these schemas.
export type {
  ArtifactFileRequest,
  ArtifactKeyRequest,
  ArtifactPart,
  ArtifactUsageRequest,
  ArtifactVersionRequest,
  SaveArtifactBlobRequest,
  SaveArtifactRequest,
} from '../public/artifacts.js';
export type ArtifactBody = z.output<typeof artifactBodySchema>;
export type ArtifactWrite = z.output<typeof artifactWriteSchema>;

/** Most artifact versions one import takes. */
export const MAX_IMPORT_ARTIFACTS = 100_000;

/** One version as an archive carries it: what a save sends, plus its number and creation time. */
export const artifactImportSchema = z.extend(artifactWriteSchema, {
  version,
  createTime: z
    .number()
    .check(z.int('must be a whole number'), z.minimum(0, 'must not be negative'), z.maximum(8.64e15, 'is too large')),
});

export const artifactImportListSchema = z
  .array(artifactImportSchema)
  .check(z.maxLength(MAX_IMPORT_ARTIFACTS, `must hold at most ${MAX_IMPORT_ARTIFACTS} artifact versions`));

export type ArtifactImport = z.output<typeof artifactImportSchema>;
