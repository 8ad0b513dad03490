/**
 * Starts the store's own worker. Written as the literal pattern app bundlers (Vite,
 * webpack 5, Rollup with an assets plugin) detect, emit and rewrite: do not wrap the
 * URL. This module sits at the package's root (dist/bundled-worker.js) so that, in
 * a bundle made by a tool that leaves the URL alone (esbuild), the worker is found
 * at `./worker/store.js` beside the bundle.
 */
export function startBundledWorker(mode: 'shared' | 'dedicated'): Worker | SharedWorker {
  return mode === 'shared'
    ? new SharedWorker(new URL('../worker/store.ts', import.meta.url), { type: 'module', name: 'idb-adk-sessions' })
    : new Worker(new URL('../worker/store.ts', import.meta.url), { type: 'module' });
}
