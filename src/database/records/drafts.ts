/**
 * Drafts: replies being written as they stream (src/drafts). A draft is a head
 * (who writes it, for which invocation) and its chunks, each the deltas of one
 * coalesced write, so a write adds a small record and never rewrites what is
 * stored. Both are keyed under their session (`[app, user, session, draft]`,
 * chunks then by their sequence number), so one key range finds, and removes,
 * a session's drafts or one draft.
 */
import { type Bounds, bound } from '../idb/index.js';

/** What one append to a draft adds: text to the answer, text to the reasoning, whole parts. */
export interface DraftDeltaRecord {
  text?: string;
  thought?: string;
  parts?: Record<string, unknown>[];
}

export type DraftKey = [string, string, string, string];
export type DraftChunkKey = [string, string, string, string, number];

export interface DraftHeadRecord {
  k: DraftKey;
  author: string;
  invocationId?: string;
  branch?: string;
  customMetadata?: Record<string, unknown>;
  /** The writer holding it (a Web Lock's name part); a draft whose writer is gone is interrupted. */
  writer: string;
  startedAt: number;
}

export interface DraftChunkRecord {
  k: DraftChunkKey;
  /** When it was written (epoch ms). */
  at: number;
  deltas: DraftDeltaRecord[];
  /** How many appends the draft holds through this chunk, counted by its writer (absent before previews). */
  n?: number;
}

/** A transaction holding the drafts' stores (named structurally: ./index.ts names these records). */
interface DraftStores {
  objectStore(name: 'drafts' | 'draftChunks'): { delete(query: DraftKey | Bounds): Promise<void> };
}

/** Every draft of a session, or every chunk of its drafts. */
export const sessionDrafts = (appName: string, userId: string, sessionId: string) =>
  bound([appName, userId, sessionId], [appName, userId, sessionId, []]);

/** Every chunk of one draft, from sequence number `from` on. */
export const draftChunks = (key: DraftKey, from = 0) => bound([...key, from], [...key, []]);

/** Removes a draft, its head and its chunks, in `tx` (a draft finished, dropped or expired). */
export function removeDraft(tx: DraftStores, key: DraftKey): void {
  tx.objectStore('drafts').delete(key);
  tx.objectStore('draftChunks').delete(draftChunks(key));
}

/** Removes every draft of a session in `tx` (the session removed). */
export function removeSessionDrafts(
  tx: DraftStores,
  appName: string,
  userId: string,
  sessionId: string,
): Promise<unknown> {
  const range = sessionDrafts(appName, userId, sessionId);
  return Promise.all([tx.objectStore('drafts').delete(range), tx.objectStore('draftChunks').delete(range)]);
}
