/**
 * `idb-adk-sessions/vite`: a Vite plugin that makes Google ADK (`@google/adk` 2.x)
 * bundle and run in a browser page or worker, so its Runner can use this store.
 *
 * @example
 * ```ts
 * // vite.config.ts
 * import { adkBrowser } from 'idb-adk-sessions/vite';
 * export default { plugins: [adkBrowser()], worker: { format: 'es', plugins: () => [adkBrowser()] } };
 * ```
 */
import type { Plugin } from 'vite';
import { isServerOnly, serverOnlyStub } from './server-only.js';
import { SHIMS } from './shims.js';

const VIRTUAL = '\0idb-adk-sessions:adk-shim:';

/** The hooks, shared by Vite's build and its dependency optimizer (which runs Rolldown plugins, not Vite's). */
const hooks = {
  resolveId(id: string, importer: string | undefined) {
    if (importer?.replaceAll('\\', '/').includes('/@google/adk/') && Object.hasOwn(SHIMS, id)) return VIRTUAL + id;
    return null;
  },
  load(id: string) {
    if (id.startsWith(VIRTUAL)) return SHIMS[id.slice(VIRTUAL.length)] ?? null;
    if (isServerOnly(id)) return serverOnlyStub(id);
    return null;
  },
};

/** The plugin: serves browser stand-ins for the Node modules `@google/adk` loads at start-up and stubs its server-only modules, in builds and in the dev server's dependency optimizer. Add it to `plugins` and to `worker.plugins`. */
export function adkBrowser(): Plugin {
  return {
    name: 'idb-adk-sessions:adk-browser',
    enforce: 'pre',
    config: () => ({
      optimizeDeps: { rolldownOptions: { plugins: [{ name: 'idb-adk-sessions:adk-browser-deps', ...hooks }] } },
    }),
    ...hooks,
  };
}
