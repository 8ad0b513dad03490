import { adkBrowser } from 'idb-adk-sessions/vite';
import { defineConfig } from 'vite';

// adkBrowser() lets @google/adk bundle for a page; module workers let the store's worker split its later parts.
export default defineConfig({ plugins: [adkBrowser()], worker: { format: 'es' } });
