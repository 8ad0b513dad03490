import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { reliabilityCommands } from './test/browser/reliability/commands.js';

/** Flags for the system Chromium on a machine whose network reaches only package registries. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  build: {
    target: 'es2022',
    sourcemap: true,
  },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/node/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
          typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
        },
      },
      {
        extends: true,
        // Pre-bundled up front: discovering it mid-run makes Vite reload the page under a running test.
        optimizeDeps: { include: ['fast-check'] },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            commands: reliabilityCommands,
            provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
