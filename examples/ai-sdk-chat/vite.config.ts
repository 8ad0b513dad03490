import { defineConfig } from 'vite';

// Module workers: the store's worker then loads search, export and its other parts as chunks, on first use.
export default defineConfig({ worker: { format: 'es' } });
