/**
 * Full-text search across an app and user's conversations: `searchEvents` on
 * every store, one index per app and user kept in the worker and saved in the
 * store's database.
 */

export { DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, MAX_SEARCH_OFFSET } from '../core/limits.js';
export type { MatchMode, Snippet } from '../core/text/match.js';
export type { SearchOptions } from './engine.js';
export type { SearchEventsRequest, SearchEventsResponse, SearchHit } from './schema.js';
