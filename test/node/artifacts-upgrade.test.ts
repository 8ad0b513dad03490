/**
 * The artifacts' upgrade step: a database written before artifacts existed
 * gains them on first use, and its sessions keep everything (the layout itself
 * is compared with a fresh one in schema-upgrade.test.ts).
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { IndexedDbSessionService } from '../../src/index.js';
import { SCHEMA_VERSION } from '../../src/store/database.js';
import { buildV1Database, TRIP_EVENTS } from '../fixtures/v1-layout.js';

const NAME = 'before-artifacts';
const trip = { appName: 'chat', userId: 'ada', sessionId: 'trip' };
let indexedDB: IDBFactory;
let store: IndexedDbSessionService;

beforeEach(async () => {
  indexedDB = new IDBFactory();
  await buildV1Database(indexedDB, NAME);
  store = new IndexedDbSessionService({ indexedDB, dbName: NAME });
});
afterEach(() => store.close());

it('takes artifacts at SCHEMA_VERSION, beside the sessions it already held', async () => {
  expect(await store.artifacts.listArtifactKeys(trip)).toEqual([]);
  expect((await indexedDB.databases()).find((d) => d.name === NAME)?.version).toBe(SCHEMA_VERSION);
  expect(await store.artifacts.saveArtifactBlob({ ...trip, filename: 'ticket.pdf', blob: new Blob(['%PDF']) })).toBe(0);
  expect(await store.artifacts.saveArtifact({ ...trip, filename: 'user:passport', artifact: { text: 'P<' } })).toBe(0);
  const session = await store.getSession(trip);
  expect(session?.events.map((e) => e.id)).toEqual(TRIP_EVENTS.map((e) => e.id));
});

it('deletes an old session together with the artifacts saved to it since', async () => {
  await store.artifacts.saveArtifact({ ...trip, filename: 'note', artifact: { text: 'x' } });
  await store.artifacts.saveArtifact({ ...trip, filename: 'user:passport', artifact: { text: 'P<' } });
  await store.deleteSession(trip);
  expect(await store.getSession(trip)).toBeUndefined();
  expect(await store.artifacts.listArtifactKeys(trip)).toEqual(['user:passport']);
});
