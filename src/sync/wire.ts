/**
 * The sync protocol between a device and the sync server (server/): request
 * bodies the server validates and answers the device validates. Event and
 * state values are checked as plain JSON here but taken from the parsed body,
 * never from zod's copy (which drops `__proto__` keys).
 */
import * as z from 'zod/mini';
import { MAX_ID_LENGTH } from '../core/limits.js';
import { atMostUnits, eventSchema } from '../core/schema.js';
import type { Event } from '../types.js';

/** Most events one push may carry. */
export const MAX_PUSH_EVENTS = 500;
/** Most changes one pull answers with; `more` says when there are others. */
export const MAX_PULL_CHANGES = 1000;
/** The server's body cap unless it says otherwise (an older server without `GET /v1/limits`). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** GET /v1/limits: what the server accepts, so a device packs its pushes to fit. */
export const limitsSchema = z.object({
  maxBodyBytes: z.number().check(z.int(), z.positive()),
  maxPushEvents: z.number().check(z.int(), z.positive()),
});
export type ServerLimits = z.output<typeof limitsSchema>;

const id = z.string().check(z.minLength(1), atMostUnits(MAX_ID_LENGTH));
const position = z.number().check(z.int(), z.nonnegative());
const plainObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  'must be a plain object',
);

/** POST .../sessions: create a session; its `state` is the merged view (prefixed keys included). */
export const createBodySchema = z.object({ sessionId: id, state: z.optional(plainObject) });

/** POST .../sessions/:id/events: append `events` after server position `after` (the device's last known head). */
export const pushBodySchema = z.object({
  after: position,
  events: z.array(eventSchema()).check(z.minLength(1), z.maxLength(MAX_PUSH_EVENTS)),
});

/** Where the server put each event of an accepted push: its position in the session and its server timestamp. */
export const placedSchema = z.object({ id, pos: position, timestamp: z.number() });
export type Placed = z.output<typeof placedSchema>;

export const pushAcceptedSchema = z.object({ head: position, placed: z.array(placedSchema) });
export type PushAccepted = z.output<typeof pushAcceptedSchema>;

/**
 * One erased event of a session: its id, when it was erased (its mark's `at`, epoch ms), and the
 * state delta it keeps (the writes still in effect when the first copy was erased). Absent (from a
 * release before erased events kept any): `{}`.
 */
export interface Erasure {
  id: string;
  at: number;
  stateDelta?: Record<string, unknown>;
}
const erasureSchema = z.object({ id, at: position, stateDelta: z.optional(plainObject) });

/**
 * POST .../sessions/:id/erase: the session's events this device erased, which the server erases in
 * its copies by the same rule (`erasedForm`), each keeping of its delta only what the original
 * wrote with the same value; ids it does not hold are passed over. Taken from the parsed body, not
 * zod's copy.
 */
export const eraseBodySchema = z.object({
  erasures: z.array(erasureSchema).check(z.minLength(1), z.maxLength(MAX_PUSH_EVENTS)),
});

/** The answer: how many of them the server had not erased yet. */
export const eraseAnswerSchema = z.object({ erased: position });

/** One event in server order, as a 409 and a pull carry it. */
export interface Positioned {
  pos: number;
  event: Event;
}
const positionedSchema = z.object({ pos: position, event: plainObject });

/** A 409 answer: the head moved; these are the events after the device's `after`. */
export const pushRejectedSchema = z.object({ head: position, events: z.array(positionedSchema) });

export type Change =
  | { seq: number; type: 'created'; sessionId: string; state: Record<string, unknown> }
  | { seq: number; type: 'event'; sessionId: string; pos: number; event: Event }
  | { seq: number; type: 'deleted'; sessionId: string }
  | { seq: number; type: 'erased'; sessionId: string; erasures: Erasure[] };

// The tag first: a refused change is named by the option its tag picks (core/schema.ts, `meant`).
const changeSchema = z.union([
  z.object({ type: z.literal('created'), seq: position, sessionId: id, state: plainObject }),
  z.object({ type: z.literal('event'), seq: position, sessionId: id, pos: position, event: plainObject }),
  z.object({ type: z.literal('deleted'), seq: position, sessionId: id }),
  z.object({ type: z.literal('erased'), seq: position, sessionId: id, erasures: z.array(erasureSchema) }),
]);

/**
 * The query parameter (`=1`) a device adds to its pulls to hear `erased` changes. Devices that do not ask (releases
 * before erasures synced) get each as a repeat of an event at position 0, which they pass over:
 * their feed stays dense, and the erased events' content stays on them.
 */
export const ERASURES_PARAM = 'erasures';

/** GET .../changes?after=cursor: the user's changes in commit order, and the shared state as it is now. */
export const pullAnswerSchema = z.object({
  changes: z.array(changeSchema),
  cursor: position,
  more: z.boolean(),
  appState: plainObject,
  userState: plainObject,
});
export interface PullAnswer {
  changes: Change[];
  cursor: number;
  more: boolean;
  /** Unprefixed, as the server holds them now. */
  appState: Record<string, unknown>;
  userState: Record<string, unknown>;
}

/** The body of every 4xx/5xx answer. */
export interface ErrorAnswer {
  error:
    | 'unauthorized'
    | 'forbidden'
    | 'app-state-forbidden'
    | 'invalid'
    | 'too-large'
    | 'not-found'
    | 'exists'
    | 'too-many-streams'
    /** 503: the server's database is out of reach (restarting, failing over); retried like any 5xx. */
    | 'unavailable'
    | 'internal';
  message: string;
}

/** The path of a user's resources; ids are encoded, so any id is one path segment. */
export const userPath = (appName: string, userId: string): string =>
  `/v1/apps/${encodeURIComponent(appName)}/users/${encodeURIComponent(userId)}`;
