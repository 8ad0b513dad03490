/**
 * Library build only. The build keeps the rest of dist/ (the declarations and the demo live there),
 * but the worker's chunks are named by their hash: without this, chunks of earlier builds would stay
 * in dist/worker/ and be published beside the current ones.
 */
import { rmSync } from 'node:fs';
import type { Plugin } from 'vite';

export function freshWorkerDir(dir: string): Plugin {
  return {
    name: 'idb-adk-sessions:fresh-worker-dir',
    apply: 'build',
    buildStart() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
