/**
 * The artifact differential suite (test/adk/artifacts.ts) in the browser, with
 * `@google/adk` bundled for the browser: ADK's Runner saves and loads through
 * `Context` into real IndexedDB, in-thread and through a dedicated worker.
 */
import { AdkArtifactService } from '../../src/adk/index.js';
import { IndexedDbSessionService } from '../../src/index.js';
import { describeArtifactDifferential } from '../adk/artifacts.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from './helpers.js';

describeArtifactDifferential('in-thread over browser IndexedDB', () => {
  const dbName = uniqueDbName('adk-artifacts');
  const store = new IndexedDbSessionService({ dbName });
  return {
    service: new AdkArtifactService(store.artifacts),
    close: async () => {
      await store.close();
      await deleteDatabase(dbName);
    },
  };
});

describeArtifactDifferential('through a dedicated worker in the browser', () => {
  const dbName = uniqueDbName('adk-artifacts-worker');
  const { client } = dedicatedClient(dbName);
  return {
    service: new AdkArtifactService(client.artifacts),
    close: async () => {
      await client.close();
      await deleteDatabase(dbName);
    },
  };
});
