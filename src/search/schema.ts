/**
 * The search request, checked on the page (the front) and again in the worker
 * (the host), and what a search returns.
 */
import * as z from 'zod/mini';
import { MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET } from '../core/limits.js';
import { atMostUnits, sessionKeySchema } from '../core/schema.js';
import type { Snippet } from '../core/text/match.js';

const { appName, userId, sessionId } = sessionKeySchema.shape;
const whole = (max: number) =>
  z
    .number()
    .check(z.int('must be an integer'), z.nonnegative('must not be negative'), z.lte(max, `must be at most ${max}`));

export const searchEventsRequestSchema = z.object({
  appName,
  userId,
  query: z.string().check(
    atMostUnits(MAX_QUERY_LENGTH),
    z.refine((q) => q.trim().length > 0, 'must not be empty'),
  ),
  sessionId: z.optional(sessionId),
  limit: z.optional(whole(MAX_SEARCH_LIMIT).check(z.positive('must be at least 1'))),
  offset: z.optional(whole(MAX_SEARCH_OFFSET)),
  /** `'all'` (default): every word of the query; `'any'`: at least one, ranked by how well they match. */
  match: z.optional(z.enum(['all', 'any'])),
  /**
   * `true` (default): the query's last word, when nothing follows it (the word
   * being typed) and it has 3 characters or more, also matches the words it
   * begins: "pass" finds "passport". `false`: whole words only.
   */
  prefix: z.optional(z.boolean()),
  /**
   * `true` (default): words of 5 characters or more also match words one edit
   * away (9 or more: two), for the first 4 such words of the query, function
   * words aside: "pasport" finds "passport". Exact matches rank first. `false`:
   * no typo tolerance.
   */
  fuzzy: z.optional(z.boolean()),
  /**
   * `true` (default): an English word also matches its regular forms (plural,
   * -ing, -ed): "running" finds "run", "visas" finds "visa"; irregular ones
   * ("ran") are not known. Exact matches rank first. `false`: as written.
   */
  forms: z.optional(z.boolean()),
});

// Declared in public/search.ts; test/types/named-types.test-d.ts checks it against the schema.
export type { SearchEventsRequest } from '../public/search.js';

/** One event that matched. */
export interface SearchHit {
  /** The session the event is in. */
  sessionId: string;
  /** The event's id. */
  eventId: string;
  /** The event's author, if it has one. */
  author: string | undefined;
  /** Epoch milliseconds, as every time in this store. */
  timestamp: number;
  /** Relevance (BM25, to 12 significant digits): higher is better; comparable only within one call. Equal scores come newest first. */
  score: number;
  /** The event's text around its first match, with every match in it as a range. */
  snippet: Snippet;
}

/** What `searchEvents` returns: one page of hits, best first. */
export interface SearchEventsResponse {
  /** The hits of this page, best first (equal scores newest first). */
  hits: SearchHit[];
}
