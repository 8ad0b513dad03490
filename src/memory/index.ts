/**
 * Memory (ADK's memory service) on the session store's database: `store.memory`
 * on every store, holding what was added to it, searched like `searchEvents`.
 */
export type { AddEventsToMemoryRequest, MemoryFront } from './front.js';
export type { DeleteMemoryRequest, MemoryHit, MemoryUserKey, SearchMemoryRequest } from './schema.js';
