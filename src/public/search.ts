/**
 * The event search's public request type. A plain declaration checked against its zod schema
 * by test/types/named-types.test-d.ts; this module imports nothing.
 */

/** `searchEvents`: a full-text search of one user's events in an app, or in one session. Beyond ADK's shapes. */
export type SearchEventsRequest = {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
  /** The words to look for: not empty, at most `MAX_QUERY_LENGTH` characters. */
  query: string;
  /** Only this session's events; every session of the user when absent. */
  sessionId?: string;
  /** At most this many hits (at least 1, at most `MAX_SEARCH_LIMIT`; `DEFAULT_SEARCH_LIMIT` when absent). */
  limit?: number;
  /** How many hits to skip first (at most `MAX_SEARCH_OFFSET`). */
  offset?: number;
  /** `'all'` (default): every word of the query; `'any'`: at least one, ranked by how well they match. */
  match?: 'all' | 'any';
  /**
   * `true` (default): the query's last word, when nothing follows it (the word being typed) and
   * it has 3 characters or more, also matches the words it begins: "pass" finds "passport".
   * `false`: whole words only.
   */
  prefix?: boolean;
  /**
   * `true` (default): words of 5 characters or more also match words one edit away (9 or more:
   * two), for the first 4 such words of the query, function words aside: "pasport" finds
   * "passport". Exact matches rank first. `false`: no typo tolerance.
   */
  fuzzy?: boolean;
  /**
   * `true` (default): an English word also matches its regular forms (plural, -ing, -ed):
   * "running" finds "run", "visas" finds "visa"; irregular ones ("ran") are not known. Exact
   * matches rank first. `false`: as written.
   */
  forms?: boolean;
};
