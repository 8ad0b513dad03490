import { defineConfig } from 'vite';

// Module workers, so the store's worker loads its later parts as chunks; es2022 for the top-level await.
export default defineConfig({ worker: { format: 'es' }, build: { target: 'es2022' } });
