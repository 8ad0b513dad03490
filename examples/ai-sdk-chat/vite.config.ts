import type { UserConfig } from 'vite';

// Module workers, so the store's worker loads its later parts (search, export, sync) as chunks of their own.
export default { worker: { format: 'es' } } satisfies UserConfig;
