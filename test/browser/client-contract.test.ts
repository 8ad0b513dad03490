import { describeContract } from '../contract/contract.js';
import { dedicatedClient, deleteDatabase, sharedClient, uniqueDbName } from './helpers.js';

describeContract('client over dedicated module workers, browser IndexedDB', () => {
  const dbName = uniqueDbName('dedicated');
  return { open: () => dedicatedClient(dbName).client, dispose: () => deleteDatabase(dbName) };
});

describeContract('clients over one SharedWorker, browser IndexedDB', () => {
  const dbName = uniqueDbName('shared');
  return { open: () => sharedClient(dbName), dispose: () => deleteDatabase(dbName) };
});
