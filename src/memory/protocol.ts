/** What the memory front asks of an engine (in this thread, or in a worker behind the host). */
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

/** The calls, by name: what a forwarding backend (lazy, or over a worker) forwards. */
export const MEMORY_METHODS = [
  'addSessionMemory',
  'addEventsMemory',
  'searchMemory',
  'deleteMemory',
  'deleteMemories',
] as const satisfies readonly (keyof MemoryBackend)[];
