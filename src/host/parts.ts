/**
 * The capabilities outside the store's start-up (artifacts, search, memory,
 * drafts, sync), each fetched on first use as its boundary check module, `checked.ts`:
 * one list, from which the worker host and the in-thread store both make a
 * part the same way, with its `checked(engine, options)`, and which both warm up after
 * start (see `lazy.ts`). Sessions, the start-up capability, is imported as
 * it is needed: statically by the worker host, on first use in this thread.
 */
export const PARTS = {
  artifacts: () => import('../artifacts/checked.js'),
  search: () => import('../search/checked.js'),
  memory: () => import('../memory/checked.js'),
  drafts: () => import('../drafts/checked.js'),
  sync: () => import('../sync/checked.js'),
};
