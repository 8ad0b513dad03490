/**
 * The memory API every store offers as `store.memory`: ADK's memory service
 * methods (adk-python's newer ones included), on what was added to it. Only
 * events' text parts are taken (here, where the caller's events are); the
 * store validates every request.
 */
import { InvalidInputError } from '../core/errors.js';
import type { Event, Session } from '../types.js';
import type { MemoryBackend } from './protocol.js';
import type {
  AddEventsMemory,
  AddSessionMemory,
  DeleteMemoryRequest,
  MemoryHit,
  MemoryInput,
  MemoryUserKey,
  SearchMemoryRequest,
} from './schema.js';

/** `addEventsToMemory`: events to add to one user's memory. */
export interface AddEventsToMemoryRequest {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
  /** The events; only their text parts (thoughts aside) are kept, and events without text are left out. */
  events: readonly Event[];
  /** Groups the events, and scopes the deduplication by event id; events without one share one group. */
  sessionId?: string;
  /** Whatever the app wants to keep with each entry (JSON values); a search gives it back. */
  customMetadata?: Record<string, unknown>;
}

/**
 * The memory API every store offers as `store.memory`: ADK's memory service methods
 * (adk-python's newer ones included), on what was added to it.
 */
export interface MemoryFront {
  /** ADK's `addSessionToMemory`: makes what memory holds of the session its events with text now; re-adding replaces, never duplicates. */
  addSessionToMemory(session: Pick<Session, 'appName' | 'userId' | 'id' | 'events'>): Promise<void>;
  /** ADK's `addEventsToMemory`: adds the events not added before (by event id within `sessionId`): an increment. Resolves how many were new. */
  addEventsToMemory(request: AddEventsToMemoryRequest): Promise<number>;
  /**
   * ADK's `searchMemory`: the best matches (BM25 over the query's words and CJK bigrams, function
   * words weighing less; equal scores newest first), at most `limit` (default 10). `query` may be
   * a whole message of any length: it is never refused.
   */
  searchMemory(request: SearchMemoryRequest): Promise<{ memories: MemoryHit[] }>;
  /** Removes one entry by the `id` a search gave; a no-op for an unknown id. */
  deleteMemory(request: DeleteMemoryRequest): Promise<void>;
  /** Removes everything memory holds for the app and user. */
  deleteMemories(request: MemoryUserKey): Promise<void>;
}

/** The `MemoryFront` over `backend`: a store builds one; nothing else constructs it. */
export function memoryFrontOver(backend: MemoryBackend): MemoryFront {
  return new BackedMemoryFront(backend);
}

/** The methods' contracts are on `MemoryFront`. */
class BackedMemoryFront implements MemoryFront {
  constructor(private readonly backend: MemoryBackend) {}

  // Requests are built as read (an unreadable field is left undefined); the store validates them.
  async addSessionToMemory(session: Pick<Session, 'appName' | 'userId' | 'id' | 'events'>): Promise<void> {
    await this.backend.addSessionMemory({
      appName: read(() => session.appName),
      userId: read(() => session.userId),
      sessionId: read(() => session.id),
      entries: inputsOf(
        'addSessionToMemory',
        read(() => session.events),
      ),
    } as AddSessionMemory);
  }

  async addEventsToMemory(request: AddEventsToMemoryRequest): Promise<number> {
    return this.backend.addEventsMemory({
      appName: read(() => request.appName),
      userId: read(() => request.userId),
      sessionId: read(() => request.sessionId),
      customMetadata: read(() => request.customMetadata),
      entries: inputsOf(
        'addEventsToMemory',
        read(() => request.events),
      ),
    } as AddEventsMemory);
  }

  async searchMemory(request: SearchMemoryRequest): Promise<{ memories: MemoryHit[] }> {
    return { memories: await this.backend.searchMemory(request) };
  }

  async deleteMemory(request: DeleteMemoryRequest): Promise<void> {
    await this.backend.deleteMemory(request);
  }

  async deleteMemories(request: MemoryUserKey): Promise<void> {
    await this.backend.deleteMemories(request);
  }
}

/** Reads a field of a caller's object; a getter that throws is bad input, left for `validate` to name. */
function read<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** The events' text, as memory keeps it; events without text are left out (ADK's services do the same). */
function inputsOf(operation: string, events: unknown): MemoryInput[] {
  if (!Array.isArray(events)) throw new InvalidInputError(`${operation}: events: must be an array`);
  const inputs: MemoryInput[] = [];
  events.forEach((event: Event, i) => {
    try {
      const parts = (event.content?.parts ?? []).filter(
        (p): p is { text: string } =>
          typeof p?.text === 'string' && p.text.length > 0 && (p as { thought?: unknown }).thought !== true,
      );
      if (parts.length === 0) return;
      inputs.push({
        eventId: event.id,
        ...(event.author !== undefined ? { author: event.author } : {}),
        timestamp: event.timestamp,
        content: {
          ...(typeof event.content?.role === 'string' ? { role: event.content.role } : {}),
          parts: parts.map((p) => ({ text: p.text })),
        },
      });
    } catch (error) {
      throw new InvalidInputError(`${operation}: events[${i}]: cannot be read (${String(error)})`);
    }
  });
  return inputs;
}
