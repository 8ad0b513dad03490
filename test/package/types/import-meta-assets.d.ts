// The plugin ships declarations its `exports` map does not point at; this names the one call the test makes.
declare module '@web/rollup-plugin-import-meta-assets' {
  import type { Plugin } from 'rollup';
  export function importMetaAssets(options?: Record<string, unknown>): Plugin;
}
