/**
 * The boundary check's machinery (`validate`) and the shapes every
 * capability shares: ids, the session key, JSON values, events and their parts.
 * Each capability keeps its own request schemas (`sessions/schema.ts`,
 * `artifacts/schema.ts`, ...) and serves them from its `checked.ts`.
 *
 * Data values (state, events) are checked by `checkJson` inside a refinement and
 * are never taken from zod's output: zod copies objects and drops `__proto__`
 * keys, while the store keeps every key as written.
 *
 * Schemas are built on first use, not when this module loads: building them all
 * was the largest part of the worker's start-up, and its first answers need two
 * or three. So each is a function that builds it once (`validate` takes either
 * form). Only what other modules extend or take apart (`sessionKeySchema`, with
 * `idSchema`) is built at load.
 */
import * as z from 'zod/mini';
import { InvalidInputError } from './errors.js';
import { hasLoneSurrogate } from './ids.js';
import { type CheckJsonOptions, checkJson, EVENT_JSON, formatPath, isPlainObject, type JsonProblem } from './json.js';
import { MAX_ID_LENGTH, MAX_RECORD_SIZE } from './limits.js';

/**
 * At most `max` UTF-16 code units, as the limits say (core/limits.ts). Not zod's `maxLength`, which
 * counts a string's code points: an id of 1,024 emoji is 2,048 units.
 */
export const atMostUnits = (max: number) =>
  z.refine<string>((s) => s.length <= max, `must be at most ${max} characters`);

/** An event id (or a database name; memory refers to events by it): non-empty, at most MAX_ID_LENGTH, trimmed. */
export const eventIdSchema = z.string().check(
  z.minLength(1, 'must not be empty'),
  atMostUnits(MAX_ID_LENGTH),
  z.refine((s) => s.trim() === s, 'must not have surrounding whitespace'),
);

/** `appName`, `userId`, session ids: also well-formed UTF-16, as URI parts (`canonicalUri`, sync paths) must be. */
export const idSchema = eventIdSchema.check(
  z.refine((s) => !hasLoneSurrogate(s), 'must be well-formed UTF-16 (holds a lone surrogate)'),
);
export const opt = z.optional;

/** `build`'s schema, built on the first call and the same one after. */
export function built<S extends z.ZodMiniType>(build: () => S): () => S {
  let schema: S | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}

export const count = built(() => z.number().check(z.int('must be an integer'), z.nonnegative('must not be negative')));

/** A schema, or the function that builds it on first use. */
export type SchemaOf<S extends z.ZodMiniType> = S | (() => S);

type Ctx = { addIssue(issue: { code: 'custom'; message: string; path?: PropertyKey[] }): void };

function addJsonIssue(ctx: Ctx, problem: JsonProblem): void {
  ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
}

function measuredJson(value: unknown, ctx: Ctx, options?: CheckJsonOptions): void {
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
export const jsonObject = () => z.custom<Record<string, unknown>>(isPlainObject, 'must be a plain object');

export const stateObject = built(() => jsonObject().check(z.superRefine((value, ctx) => measuredJson(value, ctx))));

const anyRecord = () => z.record(z.string(), z.unknown());

const functionCall = built(() =>
  z.object({
    id: opt(z.string()),
    name: opt(z.string()),
    args: opt(anyRecord()),
  }),
);

const functionResponse = built(() =>
  z.object({
    id: opt(z.string()),
    name: opt(z.string()),
    response: opt(anyRecord()),
  }),
);

/** One part of a message. Unknown kinds of part are kept as they are. */
export const partSchema = built(() =>
  z.object({
    text: opt(z.string()),
    thought: opt(z.boolean()),
    functionCall: opt(functionCall()),
    functionResponse: opt(functionResponse()),
    inlineData: opt(z.object({ mimeType: opt(z.string()), data: opt(z.string()) })),
    fileData: opt(z.object({ mimeType: opt(z.string()), fileUri: opt(z.string()) })),
  }),
);

export const contentSchema = built(() =>
  z.object({
    role: opt(z.string()),
    parts: opt(z.array(partSchema())),
  }),
);

/**
 * In an event, an `undefined` field is an absent one, but a state write of
 * `undefined` would be ambiguous (delete? store?): it is rejected; `null` is the
 * value that stores "nothing".
 */
const stateDelta = built(() =>
  jsonObject().check(
    z.superRefine((delta, ctx) => {
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
    }),
  ),
);

export const eventActionsSchema = built(() =>
  z.object({
    stateDelta: opt(stateDelta()),
    artifactDelta: opt(z.record(z.string(), z.number())),
    requestedAuthConfigs: opt(anyRecord()),
    requestedToolConfirmations: opt(anyRecord()),
    transferToAgent: opt(z.string()),
    escalate: opt(z.boolean()),
    skipSummarization: opt(z.boolean()),
    endOfAgent: opt(z.boolean()),
    compaction: opt(
      z.object({
        startTimestamp: opt(z.number()),
        endTimestamp: opt(z.number()),
        compactedContent: opt(contentSchema()),
      }),
    ),
    rewindBeforeInvocationId: opt(z.string()),
  }),
);

/**
 * An ADK event. Only `id` and `timestamp` (epoch ms) are required; every other
 * field, known or not, is stored and returned unchanged.
 */
export const eventShape = built(() =>
  z.object({
    id: eventIdSchema,
    invocationId: opt(z.string()),
    author: opt(z.string()),
    timestamp: z.number().check(z.nonnegative('must not be negative')),
    content: opt(contentSchema()),
    actions: opt(eventActionsSchema()),
    partial: opt(z.boolean()),
    turnComplete: opt(z.boolean()),
    branch: opt(z.string()),
    longRunningToolIds: opt(z.array(z.string())),
    errorCode: opt(z.string()),
    errorMessage: opt(z.string()),
    interrupted: opt(z.boolean()),
    usageMetadata: opt(z.unknown()),
    groundingMetadata: opt(z.unknown()),
    customMetadata: opt(anyRecord()),
    isCompacted: opt(z.boolean()),
    startTime: opt(z.number()),
    endTime: opt(z.number()),
    compactedContent: opt(z.string()),
    isScratchpad: opt(z.boolean()),
  }),
);

/**
 * The plain-JSON check must see the raw input: refinements on an object schema
 * get zod's copy, which has already dropped unknown and `__proto__` keys.
 */
export const eventSchema = built(() =>
  z.pipe(z.unknown().check(z.superRefine((value, ctx) => measuredJson(value, ctx, EVENT_JSON))), eventShape()),
);

export const sessionKeySchema = z.object({
  appName: idSchema,
  userId: idSchema,
  sessionId: idSchema,
});

/** The first message of every client to a worker host. */
export const helloRequestSchema = built(() => z.object({ dbName: opt(eventIdSchema) }));

/** The message zod/mini gives an issue whose check carries none of its own. */
const UNWORDED = 'Invalid input';

/** What a value is, for a message: `null`, `array`, `a Date` (not `object`: say what was passed), or its `typeof`. */
function kindOf(value: unknown): string {
  if (Object.prototype.toString.call(value) === '[object Date]') return 'a Date';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  return value;
}

/**
 * The reason an issue gives, in words. Every check of ours carries its own
 * message; zod/mini ships no message catalogue, so its type and enum checks are
 * put in words here.
 */
function reasonOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message !== UNWORDED) return issue.message;
  if (issue.code === 'invalid_type') {
    const value = valueAt(input, issue.path);
    return value === undefined ? `is required (${issue.expected})` : `must be ${issue.expected}, not ${kindOf(value)}`;
  }
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

type Issue = z.core.$ZodIssue;
/** An option's tag (its first key, a literal) refusing the input: the input meant another option. */
const tagRefused = (i: Issue): i is z.core.$ZodIssueInvalidValue => i.code === 'invalid_value' && i.path.length === 1;
const valuesOf = (i: Issue) => (i as z.core.$ZodIssueInvalidValue).values;

/**
 * The issue to name. zod's issue for a union names no field, so the option the
 * input meant speaks for it: the first whose tag did not refuse it; when every
 * tag did, the tag's values are named together (`must be one of ...`).
 */
function meant(issue: Issue): Issue {
  if (issue.code !== 'invalid_union') return issue;
  const firsts = issue.errors.flatMap((option) => option.slice(0, 1));
  const inner = firsts.find((i) => !tagRefused(i)) ?? (firsts[0] && { ...firsts[0], values: firsts.flatMap(valuesOf) });
  return inner ? meant({ ...inner, path: [...issue.path, ...inner.path] } as Issue) : issue;
}

/**
 * Validates `input` against `schema`, throwing an `InvalidInputError` that names
 * the operation, the field and the reason — also when merely reading `input`
 * throws (hostile getters and proxies are bad input, not crashes). Returns zod's
 * output, in which data values (state, events) are the caller's own objects, not
 * copies. `at` is where `input` sits in a larger value (`['sessions', 3]`), for
 * the error's path.
 */
export function validate<S extends z.ZodMiniType>(
  operation: string,
  schema: SchemaOf<S>,
  input: unknown,
  at: PropertyKey[] = [],
): z.output<S> {
  let problem: string;
  try {
    const result = (typeof schema === 'function' ? schema() : schema).safeParse(input);
    if (result.success) return result.data;
    // zod builds issue messages lazily, reading the input again: keep this inside the try.
    const first = result.error.issues[0];
    const issue = first && meant(first);
    const path = [...at, ...(issue?.path ?? [])];
    const where = path.length > 0 ? formatPath(path) : 'request';
    problem = `${operation}: ${where}: ${issue ? reasonOf(issue, input) : 'is invalid'}`;
  } catch (error) {
    // Reading the input itself failed: a getter that throws, a revoked Proxy, a trap. Still bad input.
    const why = error instanceof Error ? error.message : String(error);
    problem = `${operation}: ${at.length > 0 ? formatPath(at) : 'request'}: cannot be read (${why})`;
  }
  throw new InvalidInputError(problem);
}
