/**
 * What memory keeps: the text of the events added to it (ADK's contract:
 * memory is what was added, not every session), one record per event, and a
 * version per app and user that every write bumps, so each store's cached
 * index knows when another tab changed it.
 */

/** Where an entry added without a session id goes (adk-python's `add_events_to_memory` allows that). */
export const NO_SESSION = '';

export interface MemoryRecord {
  appName: string;
  userId: string;
  /** `NO_SESSION` for events added without one. */
  sessionId: string;
  eventId: string;
  author?: string;
  /** Epoch milliseconds. */
  timestamp: number;
  /** The event's text parts, as the `Content` ADK's memory entries carry. */
  content: { role?: string; parts: { text: string }[] };
  customMetadata?: Record<string, unknown>;
}

export interface MemoryVersionRecord {
  appName: string;
  userId: string;
  version: number;
}

export type MemoryKey = [string, string, string, string];

/** The id a memory entry is known by: injective over (session id, event id), whatever characters they hold. */
export const memoryId = (sessionId: string, eventId: string): string => JSON.stringify([sessionId, eventId]);
