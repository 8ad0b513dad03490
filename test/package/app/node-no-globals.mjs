// A Node script that passes a factory and installs no IndexedDB globals, as the README
// shows: every call works (range reads included), and the script exits on its own.
// With the argument `native` it also passes fake-indexeddb's IDBKeyRange, as the README does.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbSessionService } from 'idb-adk-sessions';

const native = process.argv[2] === 'native';
const store = new IndexedDbSessionService({
  dbName: 'no-globals',
  indexedDB: new IDBFactory(),
  ...(native ? { IDBKeyRange } : {}),
});
const key = { appName: 'consumer', userId: 'u1' };
const session = await store.createSession({ ...key, sessionId: 's1', state: { 'user:name': 'Ada' } });
for (let i = 1; i <= 3; i++) {
  await store.appendEvent({
    session,
    event: { id: `e${i}`, invocationId: 'i1', timestamp: 1000 + i, actions: { stateDelta: { step: i } } },
  });
}
await store.createSession({ ...key, sessionId: 's2' });
const recent = await store.getSession({ ...key, sessionId: 's1', config: { numRecentEvents: 2 } });
const listed = await store.listSessions({ ...key, limit: 1, page: 2, order: 'desc' });
await store.deleteSession({ ...key, sessionId: 's1' });
const left = await store.listSessionKeys({ appName: 'consumer' });
console.log(
  JSON.stringify({
    globals: typeof globalThis.IDBRequest,
    recent: recent?.events.map((e) => e.id),
    state: recent?.state,
    page2: listed.sessions.map((s) => s.id),
    left: left.map((k) => k.sessionId),
  }),
);
