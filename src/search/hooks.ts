/**
 * What the search slice registers on the database so that saved search shards follow an erase:
 * every saved shard holding the session goes in the erase's own transaction. The writer's code is
 * fetched on first use (./erase.ts).
 */
import { lazy } from '../core/lazy.js';
import type { SessionErase } from '../database/database.js';

export const sessionSearchErase: SessionErase = {
  stores: ['searchShards'],
  load: lazy(async () => (await import('./erase.js')).eraseShards),
};
