/**
 * What the contract cannot see: what crosses the worker boundary on the Blob
 * path (a Blob, never base64), and a full disk during a save (typed, and
 * nothing half-written).
 */
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService, QuotaExceededError } from '../../src/index.js';
import { bytesOf, snapshotArtifacts } from '../contract/artifacts.js';

const key = { appName: 'app', userId: 'ada', sessionId: 's1' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

describe('the Blob path through a worker', () => {
  it('sends the File itself to the worker and gets a Blob back: no base64 on the way', async () => {
    const { port1, port2 } = new MessageChannel();
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'wire' });
    exposeEngine(engine, port1);
    const sent = vi.spyOn(port2, 'postMessage');
    const client = connectSessionStore(port2, { dbName: 'wire' });
    closers.push(async () => {
      await client.close();
      await engine.close();
    });
    await client.ready;
    const encode = vi.spyOn(globalThis, 'btoa');
    const decode = vi.spyOn(globalThis, 'atob');
    const bytes = new Uint8Array(64 * 1024).map((_, i) => i % 251);
    const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg' });

    await client.artifacts.saveArtifactBlob({ ...key, filename: 'photo.jpg', blob: file });
    const loaded = await client.artifacts.loadArtifactBlob({ ...key, filename: 'photo.jpg' });

    expect(encode).not.toHaveBeenCalled();
    expect(decode).not.toHaveBeenCalled();
    const saveCall = sent.mock.calls
      .map(([message]) => message as { path?: string[]; argumentList?: { value: { blob?: unknown } }[] })
      .find((m) => m.path?.[0] === 'saveArtifactBlob');
    expect(saveCall?.argumentList?.[0]?.value.blob).toBe(file);
    expect(loaded?.blob).toBeInstanceOf(Blob);
    expect(await bytesOf(loaded?.blob)).toEqual([...bytes]);
    expect(loaded).toMatchObject({ mimeType: 'image/jpeg', displayName: 'photo.jpg', size: bytes.length });
  });
});

describe('a full disk', () => {
  it('rejects the save with QuotaExceededError and stores no part of it; the next save gets the version it would have', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'full' });
    closers.push(() => store.close());
    await store.artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'kept' } });
    const before = await snapshotArtifacts(store.artifacts, [key]);
    // fake-indexeddb has no quota: its store refuses the write as a full disk would.
    const add = IDBObjectStore.prototype.add;
    const full = vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'artifacts') throw new DOMException('the disk is full', 'QuotaExceededError');
      return add.apply(this, args as Parameters<typeof add>);
    });
    const save = store.artifacts.saveArtifactBlob({ ...key, filename: 'a', blob: new Blob(['x'.repeat(1000)]) });
    await expect(save).rejects.toBeInstanceOf(QuotaExceededError);
    full.mockRestore();
    expect(await snapshotArtifacts(store.artifacts, [key])).toEqual(before);
    expect(await store.artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'next' } })).toBe(1);
  });
});
