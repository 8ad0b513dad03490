/**
 * Bad artifact input, generated and hand-picked: through the in-thread service,
 * and straight into the worker host (what a page script could send, bypassing
 * the client's checks). Every one is an `InvalidInputError` and nothing stored
 * changes; names that look odd but are legal round-trip exactly.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostApi } from '../../src/host/api.js';
import { createHost } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { IndexedDbSessionService, InvalidInputError } from '../../src/index.js';
import { snapshotArtifacts } from '../contract/artifacts.js';

const key = { appName: 'app', userId: 'ada', sessionId: 's1' };
let n = 0;

describe('artifact input', () => {
  let store: IndexedDbSessionService;
  beforeEach(async () => {
    store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: `input-${n++}` });
    await store.artifacts.saveArtifact({ ...key, filename: 'kept', artifact: { text: 'kept' } });
  });
  afterEach(() => store.close());

  it('refuses every name with a control character, a lone surrogate, a "." or ".." segment or an empty segment, and keeps any other exactly', async () => {
    const segment = fc.oneof(
      fc.constantFrom('..', '.', '', '\u0000', 'a\u0000', 'user:', '__proto__', 'constructor', ' x ', 'é', '你好'),
      // C1 controls (U+0085 NEXT LINE), DEL, lone and paired surrogates, and their neighbours that are fine.
      fc.constantFrom('\u0085', 'a\u009f', '\u007f', '\u00a0', '\uD800', 'b\uDFFF', '\uD83D\uDE00', '\uFFFD'),
      fc.string({ maxLength: 6 }),
    );
    const name = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    await fc.assert(
      fc.asyncProperty(name, async (filename) => {
        const bare = filename.startsWith('user:') ? filename.slice(5) : filename;
        const mustRefuse =
          [...filename].some(
            (c) =>
              (c.codePointAt(0) ?? 0) < 0x20 || ((c.codePointAt(0) ?? 0) >= 0x7f && (c.codePointAt(0) ?? 0) <= 0x9f),
          ) ||
          /\p{Cs}/u.test(filename) ||
          bare === '' ||
          bare.split('/').some((s) => s === '' || s === '.' || s === '..');
        const before = await snapshotArtifacts(store.artifacts, [key]);
        const saved = await store.artifacts.saveArtifact({ ...key, filename, artifact: { text: filename } }).then(
          (version) => ({ version }),
          (error: unknown) => ({ error }),
        );
        if ('error' in saved) {
          expect(saved.error).toBeInstanceOf(InvalidInputError);
          expect(await snapshotArtifacts(store.artifacts, [key])).toEqual(before);
          return;
        }
        expect(mustRefuse, `accepted ${JSON.stringify(filename)}`).toBe(false);
        expect(await store.artifacts.loadArtifact({ ...key, filename, version: saved.version })).toEqual({
          text: filename,
        });
        expect(await store.artifacts.listArtifactKeys(key)).toContain(filename);
        expect(await store.artifacts.loadArtifact({ ...key, filename: 'kept' })).toEqual({ text: 'kept' });
        await store.artifacts.deleteArtifact({ ...key, filename });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses any part that is not exactly one of inlineData, text or fileData, changing nothing', async () => {
    const valid = (p: unknown): boolean => {
      if (typeof p !== 'object' || p === null || Array.isArray(p)) return false;
      const { text, inlineData, fileData } = p as Record<string, unknown>;
      return [text, inlineData, fileData].filter((v) => v !== undefined).length === 1;
    };
    const part = fc.oneof(
      fc.anything(),
      fc.record({ text: fc.anything() }, { requiredKeys: [] }),
      fc.record({ inlineData: fc.anything(), text: fc.anything() }, { requiredKeys: [] }),
      fc.record({ inlineData: fc.record({ data: fc.string(), mimeType: fc.string() }, { requiredKeys: [] }) }),
      fc.record({ fileData: fc.record({ fileUri: fc.anything() }) }),
    );
    await fc.assert(
      fc.asyncProperty(part, async (artifact) => {
        const before = await snapshotArtifacts(store.artifacts, [key]);
        const outcome = await store.artifacts
          .saveArtifact({ ...key, filename: 'p', artifact: artifact as { text: string } })
          .then(
            () => 'saved',
            (error: unknown) => error,
          );
        if (outcome === 'saved') {
          expect(valid(artifact)).toBe(true);
          await store.artifacts.deleteArtifact({ ...key, filename: 'p' });
          return;
        }
        expect(outcome).toBeInstanceOf(InvalidInputError);
        expect(await snapshotArtifacts(store.artifacts, [key])).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the worker host validates artifact requests again', () => {
  let engine: StoreEngine;
  let host: HostApi;
  beforeEach(async () => {
    engine = new StoreEngine({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'host' });
    host = createHost(() => engine);
    await host.hello({});
  });
  afterEach(() => engine.close());

  const write = { ...key, filename: 'f', artifact: { text: 'x' } };
  /** An artifact version as an archive carries it. */
  const imported = {
    ...key,
    filename: 'f',
    mimeType: 'text/plain',
    body: { kind: 'text', text: 'x' },
    version: 0,
    createTime: 1,
  };
  const raw: [string, (host: HostApi) => Promise<unknown>][] = [
    ['bytes that are not a Blob', (h) => h.saveArtifactBlob({ ...key, filename: 'f', blob: 'AAAA' } as never)],
    ['inline data that is not base64', (h) => h.saveArtifact({ ...write, artifact: { inlineData: { data: '<b>' } } })],
    ['a part of two kinds', (h) => h.saveArtifact({ ...write, artifact: { text: 'x', fileData: { fileUri: 'u' } } })],
    [
      'a body instead of a part',
      (h) => h.saveArtifact({ ...key, filename: 'f', body: { kind: 'text', text: 'x' } } as never),
    ],
    ['a ".." name', (h) => h.saveArtifact({ ...write, filename: '../x' })],
    ['metadata of a class instance', (h) => h.saveArtifact({ ...write, customMetadata: new Date() as never })],
    ['a version that is not a number', (h) => h.loadArtifact({ ...key, filename: 'f', version: '0' as never })],
    ['a name with a lone surrogate', (h) => h.saveArtifact({ ...write, filename: 'half\uD800.txt' })],
    ['a load of a name with a lone surrogate', (h) => h.loadArtifact({ ...key, filename: 'half\uD800.txt' })],
    ['a session id with a lone surrogate', (h) => h.saveArtifact({ ...write, sessionId: 's\uDC00' })],
    ['a name with a C1 control', (h) => h.saveArtifact({ ...write, filename: 'a\u0085' })],
    ['a part field that is a Map', (h) => h.saveArtifact({ ...write, artifact: { text: 'x', extra: new Map() } })],
    [
      'an imported part holding another payload',
      (h) =>
        h.importWithArtifacts(
          {
            sessions: [{ id: 's1', appName: 'app', userId: 'ada', state: {}, events: [], lastUpdateTime: 1 }],
            onConflict: 'error',
          },
          [{ ...imported, body: { ...imported.body, part: { inlineData: {} } } }],
        ),
    ],
    ['a missing session id', (h) => h.listArtifactKeys({ appName: 'app', userId: 'ada' } as never)],
    ['a "\\0" name on delete', (h) => h.deleteArtifact({ ...key, filename: 'a\u0000' })],
    [
      'an imported artifact of no session in the import',
      (h) => h.importWithArtifacts({ sessions: [], onConflict: 'error' }, [imported] as never),
    ],
    [
      'an imported artifact with a ".." name',
      (h) =>
        h.importWithArtifacts(
          {
            sessions: [{ id: 's1', appName: 'app', userId: 'ada', state: {}, events: [], lastUpdateTime: 1 }],
            onConflict: 'error',
          },
          [{ ...imported, filename: 'a/..' }],
        ),
    ],
  ];
  it.each(raw)('%s', async (_, call) => {
    const result = (await call(host)) as { ok: boolean; error?: { code: string } };
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('INVALID_INPUT');
    expect(await host.listArtifactKeys(key)).toEqual({ ok: true, value: [] });
  });

  it('finds nothing at a negative or fractional version, as ADK does', async () => {
    await host.saveArtifact(write);
    for (const version of [-1, 0.5]) {
      expect(await host.loadArtifact({ ...key, filename: 'f', version })).toEqual({ ok: true, value: undefined });
      expect(await host.getArtifactVersion({ ...key, filename: 'f', version })).toEqual({ ok: true, value: undefined });
    }
  });

  it('stores what a valid raw request asks for', async () => {
    expect(await host.saveArtifact(write)).toEqual({ ok: true, value: 0 });
    expect(await host.listArtifactKeys(key)).toEqual({ ok: true, value: ['f'] });
  });
});
