/**
 * Builds examples/ai-sdk-chat into dist/demo/ai-sdk-chat, served beside the demo by the e2e
 * tests, from this repo's sources: the example's own config, with `idb-adk-sessions` aliased
 * to src/ (an app of its own takes it from node_modules; test/package builds it that way).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vite';
import example from '../../examples/ai-sdk-chat/vite.config.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default mergeConfig(
  example,
  defineConfig({
    root: here('../../examples/ai-sdk-chat'),
    base: './',
    resolve: {
      alias: [
        { find: /^idb-adk-sessions\/ai-sdk\/react$/, replacement: here('../../src/ai-sdk/react.ts') },
        { find: /^idb-adk-sessions\/(react|ai-sdk)$/, replacement: `${here('../../src')}/$1/index.ts` },
        { find: /^idb-adk-sessions$/, replacement: here('../../src/index.ts') },
      ],
    },
    build: { target: 'es2022', outDir: here('../../dist/demo/ai-sdk-chat'), emptyOutDir: true },
    logLevel: 'warn',
  }),
);
