/**
 * How a live query reads a change notice's shared scopes. Here, beside the live
 * queries, rather than with the notice's type: the change feed is in every page
 * bundle, the live queries only in the pages that watch.
 */
import type { StoreChange } from '../database/changes.js';

/** The shared scopes `change` may have written (both, when an older release did not say). */
export function scopesOf(change: StoreChange): { app: boolean; user: boolean } {
  if (change.type === 'deleted' || change.type === 'drafted') return { app: false, user: false };
  return change.scopes ?? { app: true, user: true };
}
