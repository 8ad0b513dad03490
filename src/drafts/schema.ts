/**
 * Draft requests, checked where the engine runs (the worker host, or the
 * in-thread store's boundary). A write's deltas are JSON checked on the raw
 * input, as events are: zod's copy would drop a `__proto__` key.
 */
import * as z from 'zod/mini';
import { checkJson, EVENT_JSON, isPlainObject } from '../core/json.js';
import { MAX_RECORD_SIZE } from '../core/limits.js';
import { built, count, eventIdSchema, opt, partSchema, sessionKeySchema } from '../core/schema.js';

const key = sessionKeySchema.shape;

const metadata = () =>
  z.custom<Record<string, unknown>>(
    (value) => isPlainObject(value) && checkJson(value, { size: 0 }) === null,
    'must be a plain object of JSON values',
  );

/** The writer's name: made by the writer, the name part of its lock. */
const writer = () => eventIdSchema;

export const draftRequestSchema = built(() => z.object({ ...key, draftId: eventIdSchema }));

export const beginDraftSchema = built(() =>
  z.object({
    ...key,
    draftId: eventIdSchema,
    writer: writer(),
    author: z.string(),
    invocationId: opt(z.string()),
    branch: opt(z.string()),
    customMetadata: opt(metadata()),
  }),
);

const deltaSchema = built(() =>
  z.object({ text: opt(z.string()), thought: opt(z.string()), parts: opt(z.array(partSchema())) }),
);

/**
 * The deltas of one write: JSON (checked raw), at most the size of one event, each of a
 * delta's shape. The output holds the caller's own deltas, not zod's copies (which would
 * drop unknown fields of a part and `__proto__` keys).
 */
const deltasSchema = built(() =>
  z.array(z.unknown()).check(
    z.minLength(1, 'must hold a delta'),
    z.superRefine((value, ctx) => {
      const measure = { size: 0 };
      const problem = checkJson(value, measure, EVENT_JSON);
      if (problem) return ctx.addIssue({ code: 'custom', message: problem.why, path: problem.path });
      if (measure.size > MAX_RECORD_SIZE) {
        return ctx.addIssue({ code: 'custom', message: `is larger than the ${MAX_RECORD_SIZE}-character limit` });
      }
      value.forEach((delta, i) => {
        const issue = deltaSchema().safeParse(delta).error?.issues[0];
        if (!issue) return;
        const message = issue.code === 'invalid_type' ? `must be ${issue.expected}` : issue.message;
        ctx.addIssue({ code: 'custom', message, path: [i, ...issue.path] });
      });
    }),
  ),
);

export const writeDraftSchema = built(() =>
  z.object({
    ...key,
    draftId: eventIdSchema,
    writer: writer(),
    seq: count().check(z.positive('must be at least 1')),
    deltas: deltasSchema(),
    appends: opt(count()),
  }),
);

/** At most this many drafts named in a tail read: a session holds far fewer (`MAX_DRAFTS_PER_SESSION`). */
const MAX_SINCE = 1000;

export const draftTailsSchema = built(() =>
  z.object({
    ...key,
    // Objects, not tuples: zod's tuple would be shared code in the worker's first chunk.
    since: z
      .array(z.object({ draftId: eventIdSchema, seq: count(), startedAt: count() }))
      .check(z.maxLength(MAX_SINCE)),
  }),
);

export const claimDraftSchema = built(() => z.object({ ...key, draftId: eventIdSchema, writer: writer() }));
