/**
 * Library build only. Vite compiles `new Worker(new URL('../../worker/x.ts', import.meta.url))`
 * into its own asset-URL expression, which an app's bundler no longer recognises as a worker.
 * This puts back the plain pattern every bundler detects, pointing at the emitted file
 * beside the entry: `new Worker(new URL('./worker/x.js', import.meta.url), ...)`.
 */
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

const viteWorkerUrl =
  /new URL\(\s*\/\* @vite-ignore \*\/\s*new URL\("((?:\.\.\/)*worker\/[\w-]+\.js)", import\.meta\.url\)\.href,\s*"" \+ import\.meta\.url\s*\)/g;

export function relativeWorkerUrls(): Plugin {
  return {
    name: 'idb-adk-sessions:relative-worker-urls',
    apply: 'build',
    enforce: 'post',
    renderChunk(code) {
      if (!code.includes('@vite-ignore')) return null;
      const s = new MagicString(code);
      for (const match of code.matchAll(viteWorkerUrl)) {
        const path = match[1]?.startsWith('.') ? match[1] : `./${match[1]}`;
        s.overwrite(match.index, match.index + match[0].length, `new URL("${path}", import.meta.url)`);
      }
      if (s.toString().includes('@vite-ignore')) {
        this.error('a worker URL was left in a form app bundlers cannot follow (Vite changed its output?)');
      }
      return { code: s.toString(), map: s.generateMap({ hires: true }) };
    },
  };
}
