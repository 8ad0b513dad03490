import { IndexedDbSessionService } from '../../src/index.js';
import { describeArtifactContract } from '../contract/artifacts.js';
import { dedicatedClient, deleteDatabase, sharedClient, uniqueDbName } from './helpers.js';

describeArtifactContract('in-thread over browser IndexedDB', () => {
  const dbName = uniqueDbName('artifacts');
  return { open: () => new IndexedDbSessionService({ dbName }), dispose: () => deleteDatabase(dbName) };
});

describeArtifactContract('client over dedicated module workers, browser IndexedDB', () => {
  const dbName = uniqueDbName('artifacts-dedicated');
  return { open: () => dedicatedClient(dbName).client, dispose: () => deleteDatabase(dbName) };
});

describeArtifactContract('clients over one SharedWorker, browser IndexedDB', () => {
  const dbName = uniqueDbName('artifacts-shared');
  return { open: () => sharedClient(dbName), dispose: () => deleteDatabase(dbName) };
});
