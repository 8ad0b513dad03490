/**
 * The search request behind the store's boundary check (the page is another
 * realm, or an app's code in this one): validated, then handed to the store's
 * search. A worker host serves it and an in-thread store calls it.
 */
import { validate } from '../core/schema.js';
import type { DatabaseOwner } from '../database/database.js';
import { searchEngineFor } from './engine.js';
import type { SearchBackend } from './protocol.js';
import { searchEventsRequestSchema } from './schema.js';

/** The search methods of the store `owner()` gives (it may throw, as a host's does before hello). */
export function checked(owner: () => DatabaseOwner): SearchBackend {
  return {
    searchEvents: (r) => searchEngineFor(owner()).searchEvents(validate('searchEvents', searchEventsRequestSchema, r)),
  };
}
