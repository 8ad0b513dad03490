/**
 * The memory requests behind the store's boundary check (the page is another
 * realm, or an app's code in this one): each validated, then handed to the
 * store's memory. A worker host serves them and an in-thread store calls them.
 */
import { validate } from '../core/schema.js';
import type { DatabaseOwner } from '../database/database.js';
import { memoryEngineFor } from './engine.js';
import type { MemoryBackend } from './protocol.js';
import {
  addEventsMemorySchema,
  addSessionMemorySchema,
  deleteMemorySchema,
  searchMemorySchema,
  userKeySchema,
} from './schema.js';

/** The memory methods of the store `owner()` gives (it may throw, as a host's does before hello). */
export function checked(owner: () => DatabaseOwner): MemoryBackend {
  const engine = () => memoryEngineFor(owner());
  return {
    addSessionMemory: (r) => engine().addSessionMemory(validate('addSessionToMemory', addSessionMemorySchema, r)),
    addEventsMemory: (r) => engine().addEventsMemory(validate('addEventsToMemory', addEventsMemorySchema, r)),
    searchMemory: (r) => engine().searchMemory(validate('searchMemory', searchMemorySchema, r)),
    deleteMemory: (r) => engine().deleteMemory(validate('deleteMemory', deleteMemorySchema, r)),
    deleteMemories: (r) => engine().deleteMemories(validate('deleteMemories', userKeySchema, r)),
  };
}
