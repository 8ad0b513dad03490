/** The Vite config of a bench page built on its own, served cross-origin isolated for fine timer resolution. */
import { defineConfig, type UserConfig } from 'vite';

export function benchPageConfig(root: string): UserConfig {
  return defineConfig({
    root,
    base: './',
    logLevel: 'warn',
    build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false },
    worker: { format: 'es' },
    preview: {
      host: '127.0.0.1',
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
    },
  });
}
