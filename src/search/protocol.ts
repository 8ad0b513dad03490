/** What the search front asks of an engine (in this thread, or in a worker behind the host). */
import type { SearchEventsRequest, SearchEventsResponse } from './schema.js';

export interface SearchBackend {
  searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse>;
}
