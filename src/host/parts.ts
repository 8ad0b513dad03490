/**
 * The capabilities outside the store's start-up (artifacts, search, memory,
 * sync), each fetched on first use as its boundary check module, `checked.ts`:
 * one list, from which the worker host and the in-thread store both make a
 * part the same way, `checkedX(engine, options)`, and which both warm up after
 * start (see `lazy.ts`). Sessions, the start-up capability, is imported as
 * it is needed: statically by the worker host, on first use in this thread.
 */
export const PARTS = {
  artifacts: () => import('../artifacts/checked.js').then((m) => m.checkedArtifacts),
  search: () => import('../search/checked.js').then((m) => m.checkedSearch),
  memory: () => import('../memory/checked.js').then((m) => m.checkedMemory),
  sync: () => import('../sync/checked.js').then((m) => m.checkedSync),
};
