/**
 * Compaction in a real browser: the compaction suite (test/contract/compaction.ts) on a client of
 * a dedicated worker and on the in-thread store, and the compaction differential
 * (test/adk/compaction-differential.ts): ADK's Runner with `contextCompactors`, bundled by
 * `idb-adk-sessions/vite`, on this store through a worker, read whole and from the latest compaction.
 */
import { AdkSessionService } from '../../src/adk/index.js';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeCompactionDifferential } from '../adk/compaction-differential.js';
import { describeCompactionEvents } from '../contract/compaction.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

describeCompactionEvents('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('compaction')).client);
describeCompactionEvents('in-thread', () => new IndexedDbSessionService({ dbName: uniqueDbName('compaction') }));

describeCompactionDifferential('a client of a dedicated worker', () => [
  {
    label: 'through a worker, every event read',
    open: () => new AdkSessionService(dedicatedClient(uniqueDbName('compaction-diff')).client),
  },
  {
    label: 'through a worker, fromLatestCompaction',
    open: () =>
      new AdkSessionService(dedicatedClient(uniqueDbName('compaction-diff')).client, { fromLatestCompaction: true }),
  },
]);
