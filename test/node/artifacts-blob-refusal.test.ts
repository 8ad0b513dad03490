/**
 * Where IndexedDB refuses Blobs (WebKit in an ephemeral session: Safari's
 * Private Browsing), artifacts are stored as ArrayBuffers by themselves: the
 * refused write is retried once after its transaction aborted, nothing is lost
 * or doubled, and the store keeps to ArrayBuffers from then on.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, exportArchiveToBlob, IndexedDbSessionService, importArchive } from '../../src/index.js';
import { bytesOf, snapshotArtifacts } from '../contract/artifacts.js';
import { makeEvent } from '../contract/contract.js';
import { type RefusingFactory, refusingBlobs } from './refuses-blobs.js';

const key = { appName: 'app', userId: 'ada', sessionId: 'trip' };
const photo = () => new File([new Uint8Array([137, 80, 78, 71, 0, 1, 2])], 'photo.png', { type: 'image/png' });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function storeOver(factory: Pick<RefusingFactory, 'indexedDB'>, dbName = 'refusal'): IndexedDbSessionService {
  const store = new IndexedDbSessionService({ indexedDB: factory.indexedDB, IDBKeyRange, dbName });
  closers.push(() => store.close());
  return store;
}

/** A store with two sessions, a File, text and inline bytes (two Blobs in one import), exported as an archive. */
async function archive(): Promise<Blob> {
  const source = storeOver(refusingBlobs(), 'source');
  for (const sessionId of ['trip', 'home']) {
    const session = await source.createSession({ ...key, sessionId, state: { step: 1 } });
    await source.appendEvent({ session, event: makeEvent() });
    await source.appendEvent({ session, event: makeEvent() });
  }
  await source.artifacts.saveArtifactBlob({ ...key, filename: 'photo.png', blob: photo() });
  await source.artifacts.saveArtifact({ ...key, filename: 'notes.md', artifact: { text: 'v0' } });
  await source.artifacts.saveArtifact({
    ...key,
    sessionId: 'home',
    filename: 'b.bin',
    artifact: { inlineData: { data: 'AAEC' } },
  });
  return exportArchiveToBlob(source);
}

const keys = [key, { ...key, sessionId: 'home' }];

describe('artifacts where IndexedDB refuses Blobs', () => {
  it('stores a refused Blob as an ArrayBuffer: one version, the same bytes, type and name', async () => {
    const factory = refusingBlobs();
    const store = storeOver(factory);

    expect(await store.artifacts.saveArtifactBlob({ ...key, filename: 'photo.png', blob: photo() })).toBe(0);
    expect(factory.refused()).toBe(1);
    expect(await store.artifacts.listVersions({ ...key, filename: 'photo.png' })).toEqual([0]);
    const loaded = await store.artifacts.loadArtifactBlob({ ...key, filename: 'photo.png' });
    expect(loaded).toMatchObject({ version: 0, mimeType: 'image/png', size: 7, displayName: 'photo.png' });
    expect(loaded?.blob?.type).toBe('image/png');
    expect(await bytesOf(loaded?.blob)).toEqual([137, 80, 78, 71, 0, 1, 2]);
    expect(await store.artifacts.loadArtifact({ ...key, filename: 'photo.png' })).toEqual({
      inlineData: {
        data: btoa(String.fromCharCode(137, 80, 78, 71, 0, 1, 2)),
        mimeType: 'image/png',
        displayName: 'photo.png',
      },
    });
    expect(await store.artifacts.artifactUsage(key)).toEqual({ artifacts: 1, versions: 1, bytes: 7 });
  });

  it('remembers: later saves go straight to ArrayBuffers, without another refusal', async () => {
    const factory = refusingBlobs();
    const store = storeOver(factory);
    await store.artifacts.saveArtifactBlob({ ...key, filename: 'a', blob: new Blob(['one']) });
    await store.artifacts.saveArtifactBlob({ ...key, filename: 'a', blob: new Blob(['two']) });
    await store.artifacts.saveArtifact({ ...key, filename: 'b', artifact: { inlineData: { data: 'AAEC' } } });
    expect(factory.refused()).toBe(1);
    expect(await store.artifacts.listVersions({ ...key, filename: 'a' })).toEqual([0, 1]);
    expect(await (await store.artifacts.loadArtifactBlob({ ...key, filename: 'a' }))?.blob?.text()).toBe('two');
  });

  it('concurrent saves that are all refused each land exactly once', async () => {
    const factory = refusingBlobs();
    const store = storeOver(factory);
    const versions = await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        store.artifacts.saveArtifactBlob({ ...key, filename: 'f', blob: new Blob([`n${n}`]) }),
      ),
    );
    expect([...versions].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(factory.refused()).toBeGreaterThanOrEqual(1);
    const texts = await Promise.all(
      versions.map(async (version) =>
        (await store.artifacts.loadArtifactBlob({ ...key, filename: 'f', version }))?.blob?.text(),
      ),
    );
    expect(texts).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
  });

  it('through a worker client too (the host serves the default Blob form)', async () => {
    const factory = refusingBlobs();
    const engine = new StoreEngine({ indexedDB: factory.indexedDB, IDBKeyRange, dbName: 'refusal' });
    const { port1, port2 } = new MessageChannel();
    exposeEngine(engine, port1);
    const client = connectSessionStore(port2, { dbName: 'refusal' });
    closers.push(async () => {
      await client.close();
      await engine.close();
    });
    expect(await client.artifacts.saveArtifactBlob({ ...key, filename: 'photo.png', blob: photo() })).toBe(0);
    const loaded = await client.artifacts.loadArtifactBlob({ ...key, filename: 'photo.png' });
    expect(await bytesOf(loaded?.blob)).toEqual([137, 80, 78, 71, 0, 1, 2]);
    expect(factory.refused()).toBe(1);
  });

  it('an archive import as the first write of bytes finds out first, never meeting a refusal behind its own pending writes', async () => {
    const file = await archive();
    const factory = refusingBlobs();
    const store = storeOver(factory);
    expect(await importArchive(store, file)).toMatchObject({ sessions: 2, artifacts: 3 });
    // WebKit leaves such a transaction hanging for good, the database locked (test/browser/artifacts-lifecycle.test.ts).
    expect(factory.refusedBehindPendingWrites()).toBe(0);
    expect(factory.refused()).toBe(1);
    const reference = storeOver({ indexedDB: new IDBFactory() });
    await importArchive(reference, file);
    expect(await snapshotArtifacts(store.artifacts, keys)).toEqual(await snapshotArtifacts(reference.artifacts, keys));
    for (const sessionId of ['trip', 'home']) {
      expect((await store.getSession({ ...key, sessionId }))?.events).toHaveLength(2);
    }
  });

  it('an import refused mid-way (Blobs taken until then) aborts whole and is retried once: nothing doubled', async () => {
    const file = await archive();
    const factory = refusingBlobs();
    factory.refusing = false;
    const store = storeOver(factory);
    await store.artifacts.saveArtifactBlob({
      ...key,
      sessionId: 'elsewhere',
      filename: 'taken',
      blob: new Blob(['ok']),
    });
    factory.refusing = true;

    const reports: number[] = [];
    const outcome = await importArchive(store, file, { onProgress: (p) => reports.push(p.sessions) });
    expect(outcome).toMatchObject({ sessions: 2, artifacts: 3 });
    expect(factory.refused()).toBeGreaterThanOrEqual(1);
    // Never backwards, nothing told twice: the retry's reports resume where the first try's stopped.
    expect(reports).toEqual([...new Set(reports)].sort((a, b) => a - b));
    for (const sessionId of ['trip', 'home']) {
      const session = await store.getSession({ ...key, sessionId });
      expect(session?.events).toHaveLength(2);
    }
    expect(await store.listSessions({ appName: 'app', userId: 'ada' })).toMatchObject({ sessions: { length: 2 } });
    expect(await store.artifacts.artifactUsage({ appName: 'app' })).toMatchObject({ artifacts: 4, versions: 4 });
    expect(await bytesOf((await store.artifacts.loadArtifactBlob({ ...key, filename: 'photo.png' }))?.blob)).toEqual([
      137, 80, 78, 71, 0, 1, 2,
    ]);
  });
});
