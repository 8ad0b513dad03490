/**
 * The `SessionStore` surface (test/contract/store-surface.ts) in a real
 * browser, on every way of getting a store: `openSessionStore` in each mode
 * (in-thread, dedicated, shared), `connectSessionStore` over a `MessagePort`,
 * and `new IndexedDbSessionService`. `onClose`, `ready` and `closed` once
 * existed only on worker clients; here each way must have and honour them.
 */
import {
  connectSessionStore,
  exposeSessionService,
  IndexedDbSessionService,
  openSessionStore,
  type StoreKind,
} from '../../src/index.js';
import { describeStoreSurface } from '../contract/store-surface.js';
import { deleteDatabase, uniqueDbName } from './helpers.js';

for (const mode of ['in-thread', 'dedicated', 'shared'] as const satisfies readonly StoreKind[]) {
  describeStoreSurface(`openSessionStore({ mode: '${mode}' })`, () => {
    const dbName = uniqueDbName(`surface-${mode}`);
    return {
      mode,
      open: () => openSessionStore({ dbName, mode }),
      dispose: () => deleteDatabase(dbName),
      takeAway: () => deleteDatabase(dbName),
    };
  });
}

describeStoreSurface('connectSessionStore over a MessagePort', () => {
  const dbName = uniqueDbName('surface-port');
  const served = new IndexedDbSessionService({ dbName });
  return {
    mode: 'port',
    open: () => {
      const { port1, port2 } = new MessageChannel();
      exposeSessionService(served, port1);
      return connectSessionStore(port2, { dbName });
    },
    dispose: async () => {
      await served.close();
      await deleteDatabase(dbName);
    },
    takeAway: () => deleteDatabase(dbName),
  };
});

describeStoreSurface('new IndexedDbSessionService', () => {
  const dbName = uniqueDbName('surface-service');
  return {
    mode: 'in-thread',
    open: () => new IndexedDbSessionService({ dbName }),
    dispose: () => deleteDatabase(dbName),
    takeAway: () => deleteDatabase(dbName),
  };
});
