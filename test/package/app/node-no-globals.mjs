// A Node script that passes a factory but installs no IndexedDB globals: it must get
// a typed error that says what to do, not a ReferenceError from deep inside.
import { IDBFactory } from 'fake-indexeddb';
import { IndexedDbSessionService } from 'idb-adk-sessions';

const store = new IndexedDbSessionService({ dbName: 'no-globals', indexedDB: new IDBFactory() });
try {
  await store.createSession({ appName: 'consumer', userId: 'u1' });
  console.log('created');
} catch (error) {
  console.log(`${error.name}: ${error.message}`);
}
