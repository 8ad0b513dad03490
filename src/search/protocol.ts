/** What the search front asks of an engine (in this thread, or in a worker behind the host). */
import type { SearchEventsRequest, SearchEventsResponse } from './schema.js';

export interface SearchBackend {
  searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse>;
}

/** The calls, by name: what a forwarding backend (lazy, or over a worker) forwards. */
export const SEARCH_METHODS = ['searchEvents'] as const satisfies readonly (keyof SearchBackend)[];
