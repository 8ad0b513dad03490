/**
 * zod schemas for everything that crosses the store's boundary: the single source
 * of runtime validation and of the public data types.
 *
 * Data values (state, events) are checked by `checkJson` inside a refinement and
 * are never taken from zod's output: zod copies objects and drops `__proto__`
 * keys, while the store keeps every key as written.
 */
import { z } from 'zod';
import { InvalidInputError } from './errors.js';
import { type CheckJsonOptions, checkJson, isPlainObject, type JsonProblem, toJsonForm } from './json.js';

/** Longest accepted `appName`, `userId`, session id or event id, in UTF-16 code units. */
export const MAX_ID_LENGTH = 1024;
/** Largest accepted event or initial state, measured as JSON characters. */
export const MAX_RECORD_SIZE = 8 * 1024 * 1024;

const id = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`)
  .refine((s) => s.trim() === s, 'must not have surrounding whitespace');

/** The options events are checked and converted with. */
export const EVENT_JSON: CheckJsonOptions = { undefinedFieldsAreAbsent: true };

function addJsonIssue(ctx: z.RefinementCtx, problem: JsonProblem): void {
  ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
}

function measuredJson(value: unknown, ctx: z.RefinementCtx, options?: CheckJsonOptions): void {
  const measure = { size: 0 };
  const problem = checkJson(value, measure, options);
  if (problem) addJsonIssue(ctx, problem);
  else if (measure.size > MAX_RECORD_SIZE) {
    ctx.addIssue({
      code: 'custom',
      message: `is larger than the ${MAX_RECORD_SIZE}-character limit`,
    });
  }
}

/** A plain object of JSON values; keys are kept exactly, `__proto__` included. */
const jsonObject = z.custom<Record<string, unknown>>(isPlainObject, 'must be a plain object');

const stateObject = jsonObject.superRefine(measuredJson);

const functionCall = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});

const functionResponse = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  response: z.record(z.string(), z.unknown()).optional(),
});

/** One part of a message. Unknown kinds of part are kept as they are. */
export const partSchema = z.object({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: functionCall.optional(),
  functionResponse: functionResponse.optional(),
  inlineData: z.object({ mimeType: z.string().optional(), data: z.string().optional() }).optional(),
  fileData: z.object({ mimeType: z.string().optional(), fileUri: z.string().optional() }).optional(),
});

export const contentSchema = z.object({
  role: z.string().optional(),
  parts: z.array(partSchema).optional(),
});

/**
 * In an event, an `undefined` field is an absent one, but a state write of
 * `undefined` would be ambiguous (delete? store?): it is rejected; `null` is the
 * value that stores "nothing".
 */
const stateDelta = jsonObject.superRefine((delta, ctx) => {
  for (const key of Object.keys(delta)) {
    if (delta[key] === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'must not be undefined (use null to store an empty value)',
        path: [key],
      });
      return;
    }
  }
});

export const eventActionsSchema = z.object({
  stateDelta: stateDelta.optional(),
  artifactDelta: z.record(z.string(), z.number()).optional(),
  requestedAuthConfigs: z.record(z.string(), z.unknown()).optional(),
  requestedToolConfirmations: z.record(z.string(), z.unknown()).optional(),
  transferToAgent: z.string().optional(),
  escalate: z.boolean().optional(),
  skipSummarization: z.boolean().optional(),
  endOfAgent: z.boolean().optional(),
});

/**
 * An ADK event. Only `id` and `timestamp` (epoch ms) are required; every other
 * field, known or not, is stored and returned unchanged.
 */
export const eventShape = z.object({
  id,
  invocationId: z.string().optional(),
  author: z.string().optional(),
  timestamp: z.number().nonnegative('must not be negative'),
  content: contentSchema.optional(),
  actions: eventActionsSchema.optional(),
  partial: z.boolean().optional(),
  turnComplete: z.boolean().optional(),
  branch: z.string().optional(),
  longRunningToolIds: z.array(z.string()).optional(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
  interrupted: z.boolean().optional(),
  usageMetadata: z.unknown().optional(),
  groundingMetadata: z.unknown().optional(),
  customMetadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The plain-JSON check must see the raw input: refinements on an object schema
 * get zod's copy, which has already dropped unknown and `__proto__` keys.
 */
export const eventSchema = z
  .unknown()
  .superRefine((value, ctx) => measuredJson(value, ctx, EVENT_JSON))
  .pipe(eventShape);

export const sessionKeySchema = z.object({
  appName: id,
  userId: id,
  sessionId: id,
});

export const createSessionRequestSchema = z.object({
  appName: id,
  userId: id,
  state: stateObject.optional(),
  sessionId: id.optional(),
});

export const getSessionConfigSchema = z.object({
  numRecentEvents: z.number().int('must be an integer').nonnegative('must not be negative').optional(),
  afterTimestamp: z.number().optional(),
});

export const getSessionRequestSchema = sessionKeySchema.extend({
  config: getSessionConfigSchema.optional(),
});

export const listSessionsRequestSchema = z
  .object({
    appName: id,
    userId: id.optional(),
    limit: z.number().int('must be an integer').nonnegative('must not be negative').optional(),
    offset: z.number().int('must be an integer').nonnegative('must not be negative').optional(),
    page: z.number().int('must be an integer').min(1, 'must be at least 1').optional(),
    order: z.enum(['asc', 'desc']).optional(),
  })
  .refine((r) => r.page === undefined || r.limit !== undefined, {
    message: 'needs `limit` to be set',
    path: ['page'],
  });

/** The parts of a session object that `appendEvent` reads. */
export const sessionSchema = z.object({
  id,
  appName: id,
  userId: id,
  state: jsonObject,
  events: z.array(z.unknown()),
  lastUpdateTime: z.number(),
});

export const durabilitySchema = z.enum(['strict', 'relaxed', 'default']);

export const appendEventRequestSchema = z.object({
  session: sessionSchema,
  event: eventSchema,
  durability: durabilitySchema.optional(),
});

/** Most events one append batch may carry over the worker boundary. */
export const MAX_BATCH_EVENTS = 10_000;

export const sessionRefSchema = z.object({
  uid: z.string().min(1, 'must not be empty'),
  revision: z.number().int('must be an integer').nonnegative('must not be negative'),
});

/** An append batch as the worker host receives it; its events are validated one by one. */
export const appendBatchSchema = z.object({
  appName: id,
  userId: id,
  sessionId: id,
  ref: sessionRefSchema.nullable(),
  lastUpdateTime: z.number(),
  events: z.array(z.unknown()).max(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events`),
  durability: durabilitySchema.optional(),
});

export const helloRequestSchema = z.object({ dbName: id.optional() });

export const userStateRequestSchema = z.object({ appName: id, userId: id });

/** Which sessions' keys to list: every app's, one app's, or one user's. */
export const listSessionKeysRequestSchema = z
  .object({ appName: id.optional(), userId: id.optional() })
  .refine((r) => r.userId === undefined || r.appName !== undefined, {
    message: 'needs `appName` to be set',
    path: ['userId'],
  });

/** What an import does with a session whose id already exists for its app and user. */
export const conflictPolicySchema = z.enum(['error', 'skip', 'replace']);

/**
 * A whole session as ADK's API server returns it: what an export file holds.
 * `state` is the merged view (`app:`/`user:` keys included); events are in append order.
 */
export const importedSessionSchema = z.object({
  id,
  appName: id,
  userId: id,
  state: stateObject,
  events: z.array(eventSchema),
  lastUpdateTime: z.number().nonnegative('must not be negative'),
});

/** An import batch as the worker host receives it; its sessions are validated one by one. */
export const importBatchSchema = z.object({
  sessions: z.array(z.unknown()),
  onConflict: conflictPolicySchema,
});
export const appStateRequestSchema = z.object({ appName: id });

export const listUsersRequestSchema = z.object({
  appName: id,
  limit: z.number().int('must be an integer').nonnegative('must not be negative').optional(),
  offset: z.number().int('must be an integer').nonnegative('must not be negative').optional(),
});

function formatPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/**
 * Validates `input` against `schema`, throwing an `InvalidInputError` that names
 * the operation, the field and the reason — also when merely reading `input`
 * throws (hostile getters and proxies are bad input, not crashes). Returns zod's
 * output, in which data values (state, events) are the caller's own objects, not
 * copies. `at` is where `input` sits in a larger value (`['sessions', 3]`), for
 * the error's path.
 */
export function validate<S extends z.ZodType>(
  operation: string,
  schema: S,
  input: unknown,
  at: PropertyKey[] = [],
): z.output<S> {
  let problem: string;
  try {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    // zod builds issue messages lazily, reading the input again: keep this inside the try.
    const issue = result.error.issues[0];
    const path = [...at, ...(issue?.path ?? [])];
    const where = path.length > 0 ? formatPath(path) : 'request';
    problem = `${operation}: ${where}: ${issue?.message ?? 'is invalid'}`;
  } catch (error) {
    // Reading the input itself failed: a getter that throws, a revoked Proxy, a trap. Still bad input.
    const why = error instanceof Error ? error.message : String(error);
    problem = `${operation}: ${at.length > 0 ? formatPath(at) : 'request'}: cannot be read (${why})`;
  }
  throw new InvalidInputError(problem);
}

/**
 * `request` with its data field (`event`, `state`) in the JSON form the store
 * keeps (see `toJsonForm`), so that what `validate` checks is exactly what gets
 * stored: a Date where an object belongs becomes a string, and is refused as one.
 * A field with no JSON form, or that cannot be read, is left as it is for
 * `validate` to report.
 */
export function withJsonField<R>(request: R, field: 'event' | 'state', options?: CheckJsonOptions): R {
  try {
    if (typeof request !== 'object' || request === null) return request;
    const value = (request as Record<string, unknown>)[field];
    if (value === undefined) return request;
    const form = toJsonForm(value, undefined, options);
    return form.problem || form.value === value ? request : { ...request, [field]: form.value };
  } catch {
    return request;
  }
}

/** A create request, validated, with its initial state in the JSON form the store keeps. */
export function validateCreate(operation: string, request: unknown): z.output<typeof createSessionRequestSchema> {
  return validate(operation, createSessionRequestSchema, withJsonField(request, 'state'));
}
