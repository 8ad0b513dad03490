/**
 * The artifacts' upgrade step: a database written before artifacts existed
 * gains them on first use, and its sessions keep everything (the layout itself
 * is compared with a fresh one in schema-upgrade.test.ts). Records of earlier
 * releases (payload only, no Part fields) still load and export.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/database/open.js';
import { exportArchiveToBlob, IndexedDbSessionService, importArchive } from '../../src/index.js';
import { snapshotArtifacts } from '../contract/artifacts.js';
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

it('loads versions stored by the previous release (payload only) as it did, and exports them', async () => {
  await store.artifacts.saveArtifact({ ...trip, filename: 'warm-up', artifact: { text: 'x' } });
  // Records exactly as the release before Part fields wrote them: no `part`, no `base64`.
  const base = { appName: 'chat', userId: 'ada', scope: 'trip', version: 0, createTime: 1, size: 2 };
  const records = [
    {
      ...base,
      filename: 'b',
      mimeType: 'image/png',
      body: { kind: 'bytes', data: new Blob([new Uint8Array([1, 255])]), displayName: 'b.png' },
    },
    {
      ...base,
      filename: 'ab',
      mimeType: 'application/octet-stream',
      body: { kind: 'bytes', data: new Uint8Array([1, 255]).buffer },
    },
    { ...base, filename: 't', mimeType: 'text/plain', body: { kind: 'text', text: 'hi' } },
    { ...base, filename: 'r', mimeType: 'application/pdf', size: 0, body: { kind: 'file', fileUri: 'gs://x' } },
  ];
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(NAME);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction('artifacts', 'readwrite');
  for (const r of records) tx.objectStore('artifacts').put(r);
  await new Promise((resolve) => {
    tx.oncomplete = resolve;
  });
  db.close();
  expect(await store.artifacts.loadArtifact({ ...trip, filename: 'b' })).toEqual({
    inlineData: { data: 'Af8=', mimeType: 'image/png', displayName: 'b.png' },
  });
  expect(await store.artifacts.loadArtifact({ ...trip, filename: 'ab' })).toEqual({
    inlineData: { data: 'Af8=', mimeType: 'application/octet-stream' },
  });
  expect(await store.artifacts.loadArtifact({ ...trip, filename: 't' })).toEqual({ text: 'hi' });
  expect(await store.artifacts.loadArtifact({ ...trip, filename: 'r' })).toEqual({
    fileData: { fileUri: 'gs://x', mimeType: 'application/pdf' },
  });
  const copy = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'copy' });
  await importArchive(copy, await exportArchiveToBlob(store, { appName: 'chat' }));
  expect(await snapshotArtifacts(copy.artifacts, [trip])).toEqual(
    await snapshotArtifacts(store.artifacts, [trip]).then((s) =>
      s.map((v) => JSON.parse(JSON.stringify(v).replaceAll(`indexeddb://${NAME}`, 'indexeddb://copy'))),
    ),
  );
  await copy.close();
});

it('describes a version of a database whose name is not well-formed UTF-16 without throwing', async () => {
  const odd = new IndexedDbSessionService({ indexedDB, dbName: 'db\uD800' });
  await odd.artifacts.saveArtifact({ ...trip, filename: 'n', artifact: { text: 'x' } });
  expect((await odd.artifacts.getArtifactVersion({ ...trip, filename: 'n' }))?.canonicalUri).toMatch(
    /^indexeddb:\/\/db%EF%BF%BD\/apps\/chat\//,
  );
  await odd.close();
});
