/**
 * The store's memory as an ADK `BaseMemoryService`, for ADK's `Runner`
 * (`new Runner({ ..., memoryService })`), so the `PRELOAD_MEMORY` and
 * `LOAD_MEMORY` tools search what the app added, in IndexedDB.
 */
import type { Session as AdkSession, BaseMemoryService, SearchMemoryRequest, SearchMemoryResponse } from '@google/adk';
import type { AddEventsToMemoryRequest, MemoryFront } from '../index.js';
import type { Event } from '../types.js';

/** What the adapter needs: `store.memory` of any store, in-thread or through a worker. */
export type AdkCompatibleMemory = Pick<
  MemoryFront,
  'addSessionToMemory' | 'addEventsToMemory' | 'searchMemory' | 'deleteMemory' | 'deleteMemories'
>;

type AdkMemoryEntry = SearchMemoryResponse['memories'][number];

/**
 * Memory is what was added (ADK's contract), not every session in the store:
 * `addSessionToMemory` replaces what was added for that session,
 * `addEventsToMemory` adds only events not added before. A search returns the
 * best ten (BM25 over words and CJK bigrams, as `searchEvents` with
 * `match: 'any'`, function words weighing less), for a user message of any length,
 * with ISO 8601 timestamps as ADK's prompt expects. Each entry keeps
 * its `id` (for `deleteMemory`), as adk-python's entries do.
 *
 * @example
 * ```ts
 * const store = openSessionStore({ dbName: 'my-agent' });
 * const runner = new Runner({ appName: 'chat', agent, sessionService: new AdkSessionService(store),
 *   memoryService: new AdkMemoryService(store.memory) });
 * ```
 */
export class AdkMemoryService implements BaseMemoryService {
  constructor(
    /** The memory every method delegates to (`store.memory`). */
    readonly memory: AdkCompatibleMemory,
  ) {}

  /** ADK's `addSessionToMemory`: what memory holds of the session becomes its events with text now (re-adding replaces). */
  addSessionToMemory(session: AdkSession): Promise<void> {
    return this.memory.addSessionToMemory(session as unknown as Parameters<MemoryFront['addSessionToMemory']>[0]);
  }

  /** adk-python's `add_events_to_memory`: an increment, deduplicated by event id. */
  async addEventsToMemory(request: Omit<AddEventsToMemoryRequest, 'events'> & { events: readonly unknown[] }) {
    await this.memory.addEventsToMemory({ ...request, events: request.events as Event[] });
  }

  /** ADK's `searchMemory`: the best ten entries for the query, timestamps in ISO 8601 as ADK's prompt expects. */
  async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const { memories } = await this.memory.searchMemory(request);
    return {
      memories: memories.map((m): AdkMemoryEntry & { id: string } => ({
        id: m.id,
        content: m.content,
        ...(m.author !== undefined ? { author: m.author } : {}),
        timestamp: new Date(m.timestamp).toISOString(),
      })),
    };
  }

  /** adk-python's `delete_memory`: one entry by the `id` a search gave; a no-op for an unknown id. */
  deleteMemory(request: { appName: string; userId: string; memoryId: string }): Promise<void> {
    return this.memory.deleteMemory(request);
  }

  /** adk-python's `delete_memories`: everything memory holds for the app and user. */
  deleteMemories(request: { appName: string; userId: string }): Promise<void> {
    return this.memory.deleteMemories(request);
  }
}
