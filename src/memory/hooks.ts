/**
 * What the memory slice registers on the database so that memory entries follow an erase: the
 * entries added under the session's id for the erased events are deleted in the erase's own
 * transaction. The writer's code is fetched on first use (./erase.ts).
 */
import { lazy } from '../core/lazy.js';
import type { SessionErase } from '../database/database.js';

export const sessionMemoryErase: SessionErase = {
  stores: ['memories', 'memoryVersions'],
  load: lazy(async () => (await import('./erase.js')).eraseMemories),
};
