import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { e2eEngines, testedEngines } from './scripts/engines/index.js';
import { webkitgtk } from './scripts/engines/webkit.js';
import { freshWorkerDir } from './scripts/vite/fresh-worker-dir.js';
import { relativeWorkerUrls } from './scripts/vite/relative-worker-urls.js';
import { adkBrowser } from './src/vite/index.js';
import { reliabilityCommands } from './test/browser/reliability/commands.js';

// Re-exported for scripts that import them from here; the engines themselves live in scripts/engines.
export { chromiumArgs, chromiumPath } from './scripts/engines/index.js';

/**
 * `vite build --mode lib`: the library, as published. ES modules for the main entry and the `adk`
 * and `vite` subpaths, their dependencies left to the app's bundler. The worker becomes a
 * folder, dist/worker/ (store.js and the chunks it loads), that the entry starts with the literal
 * `new Worker(new URL('./worker/store.js', import.meta.url))` app bundlers follow.
 */
const library = defineConfig({
  base: './',
  plugins: [relativeWorkerUrls(), freshWorkerDir('dist/worker')],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: {
        index: 'src/index.ts',
        adk: 'src/adk/index.ts',
        vite: 'src/vite/index.ts',
        react: 'src/react/index.ts',
        'ai-sdk': 'src/ai-sdk/index.ts',
        'ai-sdk-react': 'src/ai-sdk/react.ts',
        'tanstack-ai': 'src/tanstack-ai/index.ts',
        inspector: 'src/inspector/index.ts',
        'inspector-react': 'src/inspector/react.ts',
      },
      formats: ['es'],
    },
    rollupOptions: {
      external: [
        /^react(-dom)?(\/|$)/,
        /^ai(\/|$)/,
        /^@ai-sdk\//,
        /^@tanstack\//,
        /^comlink(\/|$)/,
        /^zod(\/|$)/,
        /^@google\/adk(\/|$)/,
        /^preact(\/|$)/,
        /^vite(\/|$)/,
        /^node:/,
      ],
      // One file per module, so an app's bundler keeps what only the in-thread mode needs
      // (the engine) out of its page chunk: `openSessionStore` loads it with import().
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
  },
  // Chunks the worker loads later (search, memory, sync) sit beside it: copying dist/worker/ copies them all.
  // What start-up runs is a chunk of its own that the entry and those chunks import: were it the entry,
  // a chunk would import the entry by its bare name and, where the worker was started from another URL
  // (a query string, Vite's dev server, a renamed copy), run a second copy of the worker.
  worker: {
    format: 'es',
    rollupOptions: {
      output: {
        entryFileNames: 'worker/[name].js',
        chunkFileNames: 'worker/[name]-[hash].js',
        codeSplitting: {
          groups: [{ name: 'core', test: (id: string) => !/worker[\\/]store\.ts$/.test(id), tags: ['$initial'] }],
        },
      },
    },
  },
});

/**
 * `vite build` builds the demo inspector (index.html + demo/ + the store's workers) into
 * dist/demo, with relative URLs so it can be served from any path; `vite` serves it in dev.
 */
const app = defineConfig({
  base: './',
  // The demo's ADK agent (and the browser tests') bundle ADK the way an app would: through the package's plugin.
  plugins: [adkBrowser()],
  // The dev server pre-bundles what the demo page reaches (ADK too, behind its lazy import) and nothing
  // else: the package tests' fixture pages import the package by name, which only resolves once installed.
  // The store's worker imports MiniSearch (search): pre-bundled up front, or its discovery reloads the page.
  optimizeDeps: { entries: ['index.html'], include: ['minisearch'] },
  build: {
    target: 'es2022',
    sourcemap: true,
    outDir: 'dist/demo',
  },
  preview: { host: '127.0.0.1', strictPort: true },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          environment: 'node',
          // No IndexedDB globals: tests pass a factory, as the README tells Node users to.
          typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        // The live-query fixtures' Svelte components (test/browser/fixtures); the library itself has no Svelte.
        plugins: [svelte({ configFile: false })],
        // Vue's feature flags, as an app's bundler sets them (unset, Vue warns in every test).
        define: {
          __VUE_OPTIONS_API__: 'false',
          __VUE_PROD_DEVTOOLS__: 'false',
          __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
        },
        // Pre-bundled up front: discovering them mid-run makes Vite reload the page under a running test.
        optimizeDeps: {
          include: [
            'fast-check',
            '@google/adk',
            'react',
            'react-dom/client',
            'minisearch',
            'vue',
            '@vueuse/rxjs',
            'rxjs',
            'preact',
            'preact/hooks',
            'axe-core',
          ],
        },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // The inspector's layout test writes the docs' screenshots only when asked to.
          provide: { updateScreenshots: process.env.UPDATE_SCREENSHOTS === '1' },
          testTimeout: 30_000,
          // A worker's first answer can take seconds on a loaded 2-core CI machine; polls wait for it.
          expect: { poll: { timeout: 10_000 } },
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            commands: reliabilityCommands,
            // One instance per engine (scripts/engines): every browser test file runs in each.
            instances: testedEngines().map((engine) => ({
              browser: engine.name,
              provider:
                engine.driver === 'playwright' ? playwright({ launchOptions: engine.launchOptions }) : webkitgtk(),
            })),
          },
        },
      },
      // The demo's e2e walk once per engine that runs it (scripts/engines): the tests launch the
      // engine E2E_ENGINE names (test/e2e/helpers.ts). The projects share one build of dist/demo
      // and one server (test/e2e/serve-demo.ts).
      ...e2eEngines().map((engine) => ({
        extends: true as const,
        test: {
          name: `e2e (${engine.name})`,
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          env: { E2E_ENGINE: engine.name },
          globalSetup: ['test/e2e/serve-demo.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file drives its own browser; one at a time keeps a 2-core machine responsive.
          fileParallelism: false,
        },
      })),
      {
        extends: true,
        test: {
          // The packed tarball installed into a fresh app; needs the library built first (npm test does).
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/package/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

export default defineConfig(({ mode }) => (mode === 'lib' ? library : app));
