/**
 * The session capability's request schemas: what its boundary check
 * (`checked.ts`) validates, and what test/types pins the public request types
 * to. Built on first use, like the shared shapes in `core/schema.ts`; data
 * values (state, events) are checked by `checkJson`, never taken from zod's copy.
 */
import * as z from 'zod/mini';
import { withJsonField } from '../core/json.js';
import { MAX_BATCH_EVENTS, MAX_BATCHES } from '../core/limits.js';
import {
  built,
  count,
  eventIdSchema,
  eventSchema,
  idSchema as id,
  jsonObject,
  opt,
  sessionKeySchema,
  stateObject,
  validate,
} from '../core/schema.js';

export const createSessionRequestSchema = built(() =>
  z.object({
    appName: id,
    userId: id,
    state: opt(stateObject()),
    sessionId: opt(id),
  }),
);

export const getSessionConfigSchema = built(() =>
  z.object({
    numRecentEvents: opt(count()),
    afterTimestamp: opt(z.number()),
    fromLatestCompaction: opt(z.boolean()),
  }),
);

export const getSessionRequestSchema = built(() =>
  z.extend(sessionKeySchema, {
    config: opt(getSessionConfigSchema()),
  }),
);

export const rewindRequestSchema = built(() => z.extend(sessionKeySchema, { beforeInvocationId: id }));

export const eraseRequestSchema = built(() =>
  z
    .extend(sessionKeySchema, {
      eventIds: opt(z.array(eventIdSchema).check(z.maxLength(MAX_BATCH_EVENTS))),
      invocationId: opt(id),
    })
    .check(
      z.refine((r) => (r.eventIds?.length ?? 0) > 0 || r.invocationId !== undefined, {
        message: 'names no event: give `eventIds` (not empty) or `invocationId`',
        path: ['eventIds'],
      }),
    ),
);

export const listSessionsRequestSchema = built(() =>
  z
    .object({
      appName: id,
      userId: opt(id),
      limit: opt(count()),
      offset: opt(count()),
      page: opt(z.number().check(z.int('must be an integer'), z.minimum(1, 'must be at least 1'))),
      order: opt(z.enum(['asc', 'desc'])),
    })
    .check(
      z.refine((r) => r.page === undefined || r.limit !== undefined, {
        message: 'needs `limit` to be set',
        path: ['page'],
      }),
    ),
);

/** The parts of a session object that `appendEvent` reads. */
export const sessionSchema = built(() =>
  z.object({
    id,
    appName: id,
    userId: id,
    state: jsonObject(),
    events: z.array(z.unknown()),
    lastUpdateTime: z.number(),
  }),
);

export const durabilitySchema = built(() => z.enum(['strict', 'relaxed', 'default']));

export const appendEventRequestSchema = built(() =>
  z.object({
    session: sessionSchema(),
    event: eventSchema(),
    durability: opt(durabilitySchema()),
  }),
);

export const sessionRefSchema = built(() =>
  z.object({
    uid: z.string().check(z.minLength(1, 'must not be empty')),
    revision: count(),
  }),
);

/** An append batch as the worker host receives it; its events are validated one by one. */
export const appendBatchSchema = built(() =>
  z.object({
    appName: id,
    userId: id,
    sessionId: id,
    ref: z.nullable(sessionRefSchema()),
    lastUpdateTime: z.number(),
    events: z.array(z.unknown()).check(z.maxLength(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events`)),
    durability: opt(durabilitySchema()),
    allOrNothing: opt(z.literal(true)),
    finishesDraft: opt(eventIdSchema),
  }),
);

/** An `appendMany` message as the host receives it: each batch is validated (and fails) alone. */
export const appendManySchema = built(() =>
  z.array(z.unknown()).check(z.maxLength(MAX_BATCHES, `must hold at most ${MAX_BATCHES} batches`)),
);

export const userStateRequestSchema = built(() => z.object({ appName: id, userId: id }));

/** Which sessions' keys to list: every app's, one app's, or one user's. */
export const listSessionKeysRequestSchema = built(() =>
  z.object({ appName: opt(id), userId: opt(id) }).check(
    z.refine((r) => r.userId === undefined || r.appName !== undefined, {
      message: 'needs `appName` to be set',
      path: ['userId'],
    }),
  ),
);

/** What an import does with a session whose id already exists for its app and user. */
export const conflictPolicySchema = built(() => z.enum(['error', 'skip', 'replace']));

/**
 * A whole session as ADK's API server returns it: what an export file holds.
 * `state` is the merged view (`app:`/`user:` keys included); events are in append order.
 */
export const importedSessionSchema = built(() =>
  z.object({
    id,
    appName: id,
    userId: id,
    state: stateObject(),
    events: z.array(eventSchema()),
    lastUpdateTime: z.number().check(z.nonnegative('must not be negative')),
  }),
);

/** An import batch as the worker host receives it; its sessions are validated one by one. */
export const importBatchSchema = built(() =>
  z.object({
    sessions: z.array(z.unknown()),
    onConflict: conflictPolicySchema(),
  }),
);
export const appStateRequestSchema = built(() => z.object({ appName: id }));

export const listUsersRequestSchema = built(() =>
  z.object({
    appName: id,
    limit: opt(count()),
    offset: opt(count()),
  }),
);

/** A create request, validated, with its initial state in the JSON form the store keeps. */
export function validateCreate(
  operation: string,
  request: unknown,
): z.output<ReturnType<typeof createSessionRequestSchema>> {
  return validate(operation, createSessionRequestSchema, withJsonField(request, 'state'));
}
