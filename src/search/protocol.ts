/** What the search front asks of an engine (in this thread, or in a worker behind the host). */
import type { MethodTable } from '../core/methods.js';
import type { SearchEventsRequest, SearchEventsResponse } from './schema.js';

export interface SearchBackend {
  searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse>;
}

/** The calls, by name (see `MethodTable`): what the host serves and a forwarding backend forwards. */
export const SEARCH_METHODS = { searchEvents: 0 } as const satisfies MethodTable<SearchBackend>;
