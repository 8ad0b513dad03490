// A Node script as a user writes it: the store on fake-indexeddb, ADK-style (never closed).
// The test expects it to print the state and exit on its own.
import 'fake-indexeddb/auto';
import { IndexedDbSessionService } from 'idb-adk-sessions';

const store = new IndexedDbSessionService({ dbName: 'node-consumer', indexedDB });
const key = { appName: 'consumer', userId: 'u1' };
const session = await store.createSession(key);
const unsubscribe = store.subscribe(key, () => {});
await store.appendEvent({
  session,
  event: { id: 'e1', invocationId: 'i1', timestamp: Date.now(), actions: { stateDelta: { step: 1 } } },
});
const read = await store.getSession({ ...key, sessionId: session.id });
console.log(JSON.stringify(read?.state));
void unsubscribe;
