/**
 * Builds the bench page (bench/index.html) on its own, so the library's
 * vite.config.ts stays as it is. Served with cross-origin isolation, which
 * gives `performance.now()` its fine (5 µs) resolution.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
  worker: { format: 'es' },
  preview: { host: '127.0.0.1', headers: isolation },
});
