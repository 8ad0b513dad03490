/**
 * Export and import with artifacts: a zip of `sessions.json` (the JSON export,
 * unchanged), `artifacts.json` and the payload files. What goes out comes back
 * identical, in-thread and through a client; an import is all or nothing.
 */
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  AlreadyExistsError,
  connectSessionStore,
  exportArchive,
  exportArchiveToBlob,
  exportSessionsToBlob,
  IndexedDbSessionService,
  InvalidInputError,
  importArchive,
  QuotaExceededError,
} from '../../src/index.js';
import { ARCHIVE_BUFFER_BYTES } from '../../src/transfer/archive.js';
import { snapshotArtifacts } from '../contract/artifacts.js';
import { makeEvent } from '../contract/contract.js';

const ada = { appName: 'app', userId: 'ada', sessionId: 'trip' };
const bob = { appName: 'app', userId: 'bob', sessionId: 'trip' };
const other = { appName: 'other', userId: 'ada', sessionId: 'x' };
const keys = [ada, bob, other, { ...ada, sessionId: 'second' }];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

function fresh(dbName = 'archive'): IndexedDbSessionService {
  const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName });
  closers.push(() => store.close());
  return store;
}

async function seeded(): Promise<IndexedDbSessionService> {
  const store = fresh();
  for (const key of [ada, bob, other]) {
    const session = await store.createSession({ ...key, state: { 'user:name': key.userId, step: 1 } });
    await store.appendEvent({ session, event: makeEvent() });
  }
  const photo = new File([new Uint8Array([137, 80, 78, 71, 0, 1, 2])], 'photo.png', { type: 'image/png' });
  await store.artifacts.saveArtifactBlob({ ...ada, filename: 'photo.png', blob: photo, customMetadata: { w: 1 } });
  await store.artifacts.saveArtifact({ ...ada, filename: 'notes/a.md', artifact: { text: 'v0 é' } });
  await store.artifacts.saveArtifact({ ...ada, filename: 'notes/a.md', artifact: { text: '' } });
  await store.artifacts.saveArtifact({
    ...ada,
    filename: 'ref',
    artifact: { fileData: { fileUri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
  });
  await store.artifacts.saveArtifact({ ...ada, filename: 'user:avatar', artifact: { text: 'ada' } });
  await store.artifacts.saveArtifact({ ...bob, filename: 'b.bin', artifact: { inlineData: { data: 'AAEC' } } });
  await store.artifacts.saveArtifact({ ...other, filename: 'elsewhere', artifact: { text: 'other app' } });
  return store;
}

const sessionsOf = async (store: IndexedDbSessionService) =>
  Promise.all(keys.map((k) => store.getSession(k).then((s) => s && { ...s, lastUpdateTime: s.lastUpdateTime })));

describe('export and import with artifacts', () => {
  it('brings back every session and every artifact version as it was, in-thread and through a client', async () => {
    const source = await seeded();
    const archive = await exportArchiveToBlob(source);
    expect(archive.type).toBe('application/zip');

    const inThread = fresh();
    const result = await importArchive(inThread, archive);
    expect(result).toMatchObject({ sessions: 3, artifacts: 7, skipped: 0 });
    expect(await snapshotArtifacts(inThread.artifacts, keys)).toEqual(await snapshotArtifacts(source.artifacts, keys));
    expect(await sessionsOf(inThread)).toEqual(await sessionsOf(source));
    expect((await inThread.artifacts.loadArtifactBlob({ ...ada, filename: 'photo.png' }))?.displayName).toBe(
      'photo.png',
    );

    const { port1, port2 } = new MessageChannel();
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'archive' });
    exposeEngine(engine, port1);
    const client = connectSessionStore(port2, { dbName: 'archive' });
    closers.push(async () => {
      await client.close();
      await engine.close();
    });
    await importArchive(client, archive);
    expect(await snapshotArtifacts(client.artifacts, keys)).toEqual(await snapshotArtifacts(source.artifacts, keys));
  });

  it('keeps every field of a Part and its base64 as written through export and import', async () => {
    const source = fresh();
    await source.createSession(ada);
    const parts = {
      thought: { text: 'hmm', thought: true, thoughtSignature: 'c2ln', __proto__x: 1 },
      video: {
        inlineData: { data: '-_8', mimeType: 'video/mp4; codecs="avc1"', displayName: '' },
        videoMetadata: { startOffset: '1s' },
        later: [1, { deep: null }],
      },
      unpadded: { inlineData: { data: 'AQ' } },
      stray: { inlineData: { data: 'AR', mimeType: 'a/b' } },
      ref: { fileData: { fileUri: 'gs://b/c', displayName: '' }, partMetadata: { k: 'v' } },
    };
    for (const [filename, artifact] of Object.entries(parts)) {
      await source.artifacts.saveArtifact({ ...ada, filename, artifact });
    }
    const target = fresh('target');
    await importArchive(target, await exportArchiveToBlob(source));
    for (const [filename, artifact] of Object.entries(parts)) {
      expect(await target.artifacts.loadArtifact({ ...ada, filename }), filename).toEqual(artifact);
    }
  });

  it('holds the JSON export unchanged as sessions.json, and only what was asked for', async () => {
    const source = await seeded();
    const options = { appName: 'app', exportedAt: 1_700_000_000_000 };
    const files = unzipSync(new Uint8Array(await (await exportArchiveToBlob(source, options)).arrayBuffer()));
    const json = await (await exportSessionsToBlob(source, options)).text();
    expect(new TextDecoder().decode(files['sessions.json'])).toBe(json);
    const manifest = JSON.parse(new TextDecoder().decode(files['artifacts.json']));
    expect(manifest.artifacts.map((a: { filename: string }) => a.filename).sort()).toEqual([
      'b.bin',
      'notes/a.md',
      'notes/a.md',
      'photo.png',
      'ref',
      'user:avatar',
    ]);
    expect(Object.keys(files).filter((n) => n.startsWith('files/'))).toHaveLength(5);
  });

  it('reports progress: sessions, then artifacts and their bytes', async () => {
    const source = await seeded();
    const seen: { sessions: number; artifacts: number; bytes: number }[] = [];
    await exportArchiveToBlob(source, { onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)).toEqual({ sessions: 3, totalSessions: 3, artifacts: 7, bytes: 7 + 5 + 0 + 3 + 3 + 9 });
  });

  describe('keeps pace with its reader', () => {
    const FILE = 512 * 1024;
    const FILES = 12;
    /** A store holding FILES incompressible files of FILE bytes (6 MiB), and a way to see how much the export read. */
    async function bulky() {
      const store = fresh('bulky');
      const session = await store.createSession(ada);
      await store.appendEvent({ session, event: makeEvent() });
      for (let i = 0; i < FILES; i++) {
        const bytes = new Uint8Array(FILE);
        for (let b = 0; b < FILE; b += 65_536) crypto.getRandomValues(bytes.subarray(b, b + 65_536));
        await store.artifacts.saveArtifactBlob({ ...ada, filename: `f${i}`, blob: new Blob([bytes]) });
      }
      const read = { bytes: 0 };
      const onProgress = (p: { bytes: number }): void => {
        read.bytes = p.bytes;
      };
      return { store, read, onProgress };
    }
    const idle = () => new Promise((resolve) => setTimeout(resolve, 300));

    it('reads about one buffer ahead of a reader that pauses, then delivers the whole archive', async () => {
      const { store, read, onProgress } = await bulky();
      const reader = exportArchive(store, { onProgress }).getReader();
      const chunks: Uint8Array[] = [];
      const first = await reader.read();
      chunks.push(first.value as Uint8Array);
      await idle();
      // The buffer (1 MiB) plus the chunk in hand, never the 6 MiB of files.
      expect(read.bytes).toBeGreaterThan(0);
      expect(read.bytes).toBeLessThan(ARCHIVE_BUFFER_BYTES + 2 * 65_536 + FILE);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
      expect(read.bytes).toBe(FILES * FILE);
      const files = unzipSync(new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()));
      expect(Object.keys(files).filter((name) => name.startsWith('files/'))).toHaveLength(FILES);
    });

    it('stops reading the store when its reader cancels', async () => {
      const { store, read, onProgress } = await bulky();
      const reader = exportArchive(store, { onProgress }).getReader();
      await reader.read();
      await reader.cancel();
      const atCancel = read.bytes;
      await idle();
      expect(read.bytes).toBe(atCancel);
      expect(read.bytes).toBeLessThan(FILES * FILE);
    });
  });

  describe('is all or nothing', () => {
    it('imports nothing, artifacts included, on a conflict', async () => {
      const archive = await exportArchiveToBlob(await seeded());
      const target = fresh();
      await target.createSession(bob);
      await expect(importArchive(target, archive)).rejects.toBeInstanceOf(AlreadyExistsError);
      expect(await snapshotArtifacts(target.artifacts, keys)).toEqual([]);
      expect(await target.getSession(ada)).toBeUndefined();
    });

    it('imports nothing when the disk fills while artifacts are written', async () => {
      const archive = await exportArchiveToBlob(await seeded());
      const target = fresh();
      const put = IDBObjectStore.prototype.put;
      vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
        if (this.name === 'artifacts') throw new DOMException('the disk is full', 'QuotaExceededError');
        return put.apply(this, args as Parameters<typeof put>);
      });
      await expect(importArchive(target, archive)).rejects.toBeInstanceOf(QuotaExceededError);
      vi.restoreAllMocks();
      expect(await target.getSession(ada)).toBeUndefined();
      expect(await target.listApps()).toEqual([]);
      expect(await snapshotArtifacts(target.artifacts, keys)).toEqual([]);
    });

    const json = (value: unknown) => strToU8(JSON.stringify(value));
    const sessionsJson = json([
      { id: 'trip', appName: 'app', userId: 'ada', state: {}, events: [], lastUpdateTime: 1 },
    ]);
    const entry = {
      ...ada,
      filename: 'f',
      version: 0,
      createTime: 1,
      mimeType: 'text/plain',
      kind: 'text',
      file: 'files/1',
    };
    const manifest = (artifacts: unknown[]) => json({ format: 'adk-artifacts', version: 1, artifacts });
    const bad: [string, Record<string, Uint8Array> | Uint8Array][] = [
      ['not a zip', strToU8('{"sessions": []}')],
      ['an unexpected entry', { 'sessions.json': sessionsJson, '../evil': strToU8('x') }],
      ['no sessions.json', { 'artifacts.json': manifest([]) }],
      ['a missing payload file', { 'sessions.json': sessionsJson, 'artifacts.json': manifest([entry]) }],
      [
        'an artifact of no session in the archive',
        {
          'sessions.json': sessionsJson,
          'artifacts.json': manifest([{ ...entry, sessionId: 'nope' }]),
          'files/1': strToU8('x'),
        },
      ],
      [
        'a ".." name',
        {
          'sessions.json': sessionsJson,
          'artifacts.json': manifest([{ ...entry, filename: '../f' }]),
          'files/1': strToU8('x'),
        },
      ],
      [
        'a version given twice',
        { 'sessions.json': sessionsJson, 'artifacts.json': manifest([entry, entry]), 'files/1': strToU8('x') },
      ],
      [
        'a manifest of another format',
        { 'sessions.json': sessionsJson, 'artifacts.json': json({ format: 'zip', artifacts: [] }) },
      ],
      [
        'a text Part whose kept fields hold bytes',
        {
          'sessions.json': sessionsJson,
          'artifacts.json': manifest([{ ...entry, part: { inlineData: { data: 'AA' } } }]),
          'files/1': strToU8('x'),
        },
      ],
      [
        'a base64 form that is not one',
        {
          'sessions.json': sessionsJson,
          'artifacts.json': manifest([{ ...entry, kind: 'bytes', base64: 'hex' }]),
          'files/1': strToU8('x'),
        },
      ],
      [
        'a lone surrogate in a name',
        {
          'sessions.json': sessionsJson,
          'artifacts.json': manifest([{ ...entry, filename: 'f\uD800' }]),
          'files/1': strToU8('x'),
        },
      ],
    ];

    it('imports an archive of the previous release (no Part fields, no base64 form) as it did', async () => {
      const target = fresh();
      const old = {
        'sessions.json': sessionsJson,
        'artifacts.json': manifest([
          entry,
          { ...entry, filename: 'b', kind: 'bytes', mimeType: 'image/png', displayName: 'b.png' },
          { ...entry, filename: 'r', kind: 'file', mimeType: 'application/pdf', fileUri: 'gs://x', file: undefined },
        ]),
        'files/1': strToU8('x'),
      };
      await importArchive(target, new Blob([zipSync(old) as Uint8Array<ArrayBuffer>]));
      expect(await target.artifacts.loadArtifact({ ...ada, filename: 'f' })).toEqual({ text: 'x' });
      expect(await target.artifacts.loadArtifact({ ...ada, filename: 'b' })).toEqual({
        inlineData: { data: 'eA==', mimeType: 'image/png', displayName: 'b.png' },
      });
      expect(await target.artifacts.loadArtifact({ ...ada, filename: 'r' })).toEqual({
        fileData: { fileUri: 'gs://x', mimeType: 'application/pdf' },
      });
    });
    it.each(bad)('imports nothing from an archive with %s: InvalidInputError', async (_, content) => {
      const target = fresh();
      const bytes = content instanceof Uint8Array ? content : zipSync(content);
      await expect(importArchive(target, new Blob([bytes as Uint8Array<ArrayBuffer>]))).rejects.toBeInstanceOf(
        InvalidInputError,
      );
      expect(await target.listApps()).toEqual([]);
      expect(await snapshotArtifacts(target.artifacts, keys)).toEqual([]);
    });
  });

  it("on conflict: replace swaps a session's artifacts, skip keeps the stored ones, stored user: versions stay", async () => {
    const archive = await exportArchiveToBlob(await seeded());
    const replaced = fresh('replace');
    await replaced.createSession(ada);
    await replaced.artifacts.saveArtifact({ ...ada, filename: 'stale', artifact: { text: 'old' } });
    await replaced.artifacts.saveArtifact({ ...ada, filename: 'user:avatar', artifact: { text: 'kept' } });
    await importArchive(replaced, archive, { onConflict: 'replace' });
    expect(await replaced.artifacts.listArtifactKeys(ada)).toEqual(['notes/a.md', 'photo.png', 'ref', 'user:avatar']);
    expect(await replaced.artifacts.loadArtifact({ ...ada, filename: 'user:avatar' })).toEqual({ text: 'kept' });

    const skipped = fresh('skip');
    await skipped.createSession(ada);
    await skipped.artifacts.saveArtifact({ ...ada, filename: 'mine', artifact: { text: 'mine' } });
    const result = await importArchive(skipped, archive, { onConflict: 'skip' });
    expect(result).toMatchObject({ sessions: 2, skipped: 1 });
    expect(await skipped.artifacts.listArtifactKeys(ada)).toEqual(['mine', 'user:avatar']);
    expect(await skipped.artifacts.listArtifactKeys(bob)).toEqual(['b.bin']);
  });

  it('a JSON-only import replacing a session clears its stale artifacts; user: ones stay', async () => {
    const store = fresh();
    await store.createSession(ada);
    await store.artifacts.saveArtifact({ ...ada, filename: 'stale', artifact: { text: 'old' } });
    await store.artifacts.saveArtifact({ ...ada, filename: 'user:avatar', artifact: { text: 'kept' } });
    await store.artifacts.saveArtifact({ ...bob, filename: 'orphan', artifact: { text: 'no session' } });
    const imported = [ada, bob].map((k) => ({
      id: k.sessionId,
      appName: k.appName,
      userId: k.userId,
      state: {},
      events: [],
      lastUpdateTime: 1,
    }));
    await store.importSessions(imported, { onConflict: 'replace' });
    expect(await store.artifacts.listArtifactKeys(ada)).toEqual(['user:avatar']);
    expect(await store.artifacts.listArtifactKeys(bob)).toEqual([]);
  });
});
