import { describeContract } from '../contract/contract.js';
import { dedicatedClient, deleteDatabase, sharedClient, uniqueDbName } from './helpers.js';

describeContract('client over dedicated module workers, Chromium IndexedDB', () => {
  const dbName = uniqueDbName('dedicated');
  return { open: () => dedicatedClient(dbName).client, dispose: () => deleteDatabase(dbName) };
});

describeContract('clients over one SharedWorker, Chromium IndexedDB', () => {
  const dbName = uniqueDbName('shared');
  return { open: () => sharedClient(dbName), dispose: () => deleteDatabase(dbName) };
});
