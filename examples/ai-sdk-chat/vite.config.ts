/**
 * Builds the example into dist/demo/ai-sdk-chat (served beside the demo by the
 * e2e tests). In an app of your own, `idb-adk-sessions` comes from node_modules;
 * here the aliases point at the sources.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  resolve: {
    alias: [
      { find: /^idb-adk-sessions\/ai-sdk\/react$/, replacement: here('../../src/ai-sdk/react.ts') },
      { find: /^idb-adk-sessions\/(react|ai-sdk)$/, replacement: `${here('../../src')}/$1/index.ts` },
      { find: /^idb-adk-sessions$/, replacement: here('../../src/index.ts') },
    ],
  },
  build: {
    target: 'es2022',
    outDir: here('../../dist/demo/ai-sdk-chat'),
    emptyOutDir: true,
    reportCompressedSize: true,
  },
  worker: { format: 'es' },
  logLevel: 'warn',
});
