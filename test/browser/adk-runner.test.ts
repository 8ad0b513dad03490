/**
 * ADK in a real browser on this store: the differential suite (test/adk/differential.ts),
 * with `@google/adk` bundled for the browser by `idb-adk-sessions/vite` and the store
 * served by a real dedicated worker. A reload is a new worker and client on the same
 * database.
 */
import { AdkSessionService } from '../../src/adk/index.js';
import { describeRunnerDifferential } from '../adk/differential.js';
import type { ServiceUnderTest } from '../adk/services.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

function workerStore(dbName: string): ServiceUnderTest {
  const open = () => new AdkSessionService(dedicatedClient(dbName).client);
  let current = open();
  return {
    label: 'this store, through a dedicated worker in the browser',
    get service() {
      return current;
    },
    async reload() {
      await current.close();
      current = open();
      return current;
    },
    close: () => current.close(),
  };
}

describeRunnerDifferential('a client of a dedicated worker', () => [workerStore(uniqueDbName('adk-diff'))]);
