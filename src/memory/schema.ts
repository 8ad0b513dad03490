/**
 * Memory requests, checked on the page (the front) and again in the worker (the host).
 */
import * as z from 'zod/mini';
import { checkJson, isPlainObject } from '../core/json.js';
import { MAX_RECORD_SIZE, MAX_SEARCH_LIMIT } from '../core/limits.js';
import { eventIdSchema, sessionKeySchema } from '../core/schema.js';

const { appName, userId, sessionId } = sessionKeySchema.shape;

/** One event as memory keeps it: its id, author, time and text parts. */
export const memoryInputSchema = z.object({
  eventId: eventIdSchema,
  author: z.optional(z.string()),
  timestamp: z.number().check(z.refine(Number.isFinite, 'must be a finite number')),
  content: z.object({
    role: z.optional(z.string()),
    parts: z.array(z.object({ text: z.string() })).check(
      z.minLength(1, 'must hold a text part'),
      z.refine((parts) => parts.reduce((n, p) => n + p.text.length, 0) <= MAX_RECORD_SIZE, 'is too large'),
    ),
  }),
});

const metadata = z.custom<Record<string, unknown>>(
  (value) => isPlainObject(value) && checkJson(value, { size: 0 }) === null,
  'must be a plain object of JSON values',
);

/** Replaces what was added for the session. */
export const addSessionMemorySchema = z.object({
  appName,
  userId,
  sessionId,
  entries: z.array(memoryInputSchema),
});

/** Adds the events not added yet (by event id, within the session or the no-session group). */
export const addEventsMemorySchema = z.object({
  appName,
  userId,
  sessionId: z.optional(sessionId),
  entries: z.array(memoryInputSchema),
  customMetadata: z.optional(metadata),
});

export const searchMemorySchema = z.object({
  appName,
  userId,
  /** Any length: a whole user message, as ADK's PRELOAD_MEMORY sends it (the engine picks the terms). */
  query: z.string(),
  limit: z.optional(
    z
      .number()
      .check(
        z.int('must be an integer'),
        z.positive('must be at least 1'),
        z.lte(MAX_SEARCH_LIMIT, `must be at most ${MAX_SEARCH_LIMIT}`),
      ),
  ),
});

export const deleteMemorySchema = z.object({
  appName,
  userId,
  memoryId: z.string().check(z.maxLength(4096, 'is too long')),
});
export const userKeySchema = z.object({ appName, userId });

export type MemoryInput = z.output<typeof memoryInputSchema>;
export type AddSessionMemory = z.output<typeof addSessionMemorySchema>;
export type AddEventsMemory = z.output<typeof addEventsMemorySchema>;
// The public request types are declared in public/memory.ts; test/types/named-types.test-d.ts checks them against these schemas.
export type { DeleteMemoryRequest, MemoryUserKey, SearchMemoryRequest } from '../public/memory.js';

/** One entry a memory search returns. */
export interface MemoryHit {
  /** What `deleteMemory` takes. */
  id: string;
  /** The session the entry was added for; absent for events added without one. */
  sessionId?: string;
  /** The id of the event the entry was taken from. */
  eventId: string;
  /** The event's author. */
  author?: string;
  /** Epoch milliseconds (the ADK adapter gives ISO 8601, as ADK expects). */
  timestamp: number;
  /** The event's message: its role and its text parts. */
  content: { role?: string; parts: { text: string }[] };
  /** The `customMetadata` the entry was added with (`addEventsToMemory`). */
  customMetadata?: Record<string, unknown>;
  /** Relevance (BM25, to 12 significant digits), best first; equal scores come newest first. */
  score: number;
}
