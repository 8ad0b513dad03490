/** What the memory front asks of an engine (in this thread, or in a worker behind the host). */
import type { MethodTable } from '../core/methods.js';
import type {
  AddEventsMemory,
  AddSessionMemory,
  DeleteMemoryRequest,
  MemoryHit,
  MemoryUserKey,
  SearchMemoryRequest,
} from './schema.js';

export interface MemoryBackend {
  addSessionMemory(request: AddSessionMemory): Promise<void>;
  addEventsMemory(request: AddEventsMemory): Promise<number>;
  searchMemory(request: SearchMemoryRequest): Promise<MemoryHit[]>;
  deleteMemory(request: DeleteMemoryRequest): Promise<void>;
  deleteMemories(request: MemoryUserKey): Promise<void>;
}

/** The calls, by name (see `MethodTable`): what the host serves and a forwarding backend forwards. */
export const MEMORY_METHODS = {
  addSessionMemory: 0,
  addEventsMemory: 0,
  searchMemory: 0,
  deleteMemory: 0,
  deleteMemories: 0,
} as const satisfies MethodTable<MemoryBackend>;
