import { adkBrowser } from 'idb-adk-sessions/vite';
import type { UserConfig } from 'vite';

// adkBrowser() lets @google/adk bundle for a page; module workers let the store's worker split its later parts.
export default { plugins: [adkBrowser()], worker: { format: 'es' } } satisfies UserConfig;
