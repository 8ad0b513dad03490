/**
 * The memory service's public request types (ADK's `BaseMemoryService`, on the store's database).
 * Plain declarations checked against their zod schemas by test/types/named-types.test-d.ts;
 * this module imports nothing.
 */

/** Names one user's memory. */
export type MemoryUserKey = {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
};

/** ADK's `searchMemory`: what one user's memory holds about `query`. */
export type SearchMemoryRequest = {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
  /** Any text, such as a whole user message (as ADK's `PRELOAD_MEMORY` sends it); the search picks the terms. */
  query: string;
  /** At most this many hits (at least 1, at most `MAX_SEARCH_LIMIT`). */
  limit?: number;
};

/** Removes one entry from a user's memory. */
export type DeleteMemoryRequest = {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
  /** The entry's `id`, as a `MemoryHit` gives it. */
  memoryId: string;
};
