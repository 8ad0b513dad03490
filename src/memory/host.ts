/** The worker side of memory: each request is validated again (the page is another realm). */
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

export function memoryMethods(current: () => DatabaseOwner): MemoryBackend {
  const engine = () => memoryEngineFor(current());
  return {
    addSessionMemory: (r) => engine().addSessionMemory(validate('addSessionToMemory', addSessionMemorySchema, r)),
    addEventsMemory: (r) => engine().addEventsMemory(validate('addEventsToMemory', addEventsMemorySchema, r)),
    searchMemory: (r) => engine().searchMemory(validate('searchMemory', searchMemorySchema, r)),
    deleteMemory: (r) => engine().deleteMemory(validate('deleteMemory', deleteMemorySchema, r)),
    deleteMemories: (r) => engine().deleteMemories(validate('deleteMemories', userKeySchema, r)),
  };
}
