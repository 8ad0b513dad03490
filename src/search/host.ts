/** The worker side of search: each request is validated again (the page is another realm). */
import { validate } from '../core/schema.js';
import type { DatabaseOwner } from '../database/database.js';
import { searchEngineFor } from './engine.js';
import type { SearchBackend } from './protocol.js';
import { searchEventsRequestSchema } from './schema.js';

/** The search methods for a host whose engine `current` gives (it throws before hello). */
export function searchMethods(current: () => DatabaseOwner): SearchBackend {
  return {
    searchEvents: (request) =>
      searchEngineFor(current()).searchEvents(validate('searchEvents', searchEventsRequestSchema, request)),
  };
}
