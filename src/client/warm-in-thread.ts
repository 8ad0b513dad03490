/**
 * The in-thread store's later parts (artifacts, search, memory, the boundary
 * checks, sync, imports), fetched soon after its engine while the page is surely still
 * online, so their first use needs no network (see `host/lazy.ts`). A module of
 * its own, loaded with `import()`: the page carries one import, not the list.
 */
import { warmLater } from '../host/lazy.js';
import { WARM } from '../host/warm.js';

export function warmInThread(): Promise<void> {
  return warmLater([() => import('../sessions/checked.js'), ...WARM]);
}
