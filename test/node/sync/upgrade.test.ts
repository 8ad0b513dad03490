/**
 * Sync's upgrade step: a database written before sync existed gains sync's
 * stores on first use, and its existing sessions become pending creations the
 * first round pushes, events and all.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/database/open.js';
import { IndexedDbSessionService } from '../../../src/index.js';
import { buildV1Database, TRIP_EVENTS } from '../../fixtures/v1-layout.js';
import { type ServerProcess, startServer, TOKENS } from '../../sync/server-process.js';

// Each test talks to a server process over HTTP; on a loaded 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ SYNC_TOKENS: `${TOKENS.alice}=ada@chat+app-state` });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

it('an older database syncs its existing sessions after the upgrade', async () => {
  const indexedDB = new IDBFactory();
  await buildV1Database(indexedDB, 'before-sync');
  const old = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'before-sync' });
  const trip = { appName: 'chat', userId: 'ada', sessionId: 'trip' };
  const sync = await old.sync({ url: server.url, token: TOKENS.alice, appName: 'chat', userId: 'ada', live: false });
  const status = await sync.syncNow();
  expect((await indexedDB.databases()).find((d) => d.name === 'before-sync')?.version).toBe(SCHEMA_VERSION);
  expect(status).toMatchObject({ pending: 0, lastError: null });

  const fresh = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'after-sync' });
  const other = await fresh.sync({ url: server.url, token: TOKENS.alice, appName: 'chat', userId: 'ada', live: false });
  await other.syncNow();
  const got = await fresh.getSession(trip);
  expect(got?.events.map((e) => e.id)).toEqual(TRIP_EVENTS.map((e) => e.id));
  expect(got?.state).toEqual((await old.getSession(trip))?.state);
  await sync.stop();
  await other.stop();
  await old.close();
  await fresh.close();
});
