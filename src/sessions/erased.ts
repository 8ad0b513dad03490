/**
 * How an erased event is told apart (pure; no store needed). `erase` keeps an event's place, id,
 * invocation, author and time and removes what it said; it leaves one mark in its
 * `customMetadata`, under `ERASED_METADATA_KEY`: `{ at }`, the epoch ms of the erase. The mark is
 * ordinary event data, so it travels wherever the event does: exports and imports, sync, ADK's
 * own session services.
 */
import type { Event } from '../types.js';

/** The `customMetadata` key of an erased event's mark, `{ at: number }` (epoch ms). */
export const ERASED_METADATA_KEY = 'erased';

/** Whether `event` was erased by `erase` (its content and other data are gone); for a UI that shows "erased". */
export function isErased(event: Pick<Event, 'customMetadata'>): boolean {
  const mark = event.customMetadata?.[ERASED_METADATA_KEY];
  return typeof mark === 'object' && mark !== null && typeof (mark as { at?: unknown }).at === 'number';
}
