import { defineConfig } from 'vite';

// Module workers, so the store's worker loads its later parts as chunks of their own.
export default defineConfig({ worker: { format: 'es' } });
