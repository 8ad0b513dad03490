/**
 * The artifact contract (shared/adk-artifacts-memory.md) as one parametric
 * suite, run against `store.artifacts` of the in-thread service (fake-indexeddb,
 * a browser) and of worker clients (dedicated, shared).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArtifactFront, InvalidInputError, type SessionService } from '../../src/index.js';

export type ArtifactStore = Pick<SessionService, 'createSession' | 'deleteSession' | 'close'> & {
  artifacts: ArtifactFront;
};

/** One database; `open` gives a new instance over it, as a second tab would. */
export interface ArtifactDatabase {
  open(): Promise<ArtifactStore> | ArtifactStore;
  dispose?(): Promise<void>;
}

const APP = 'app';
const USER = 'ada';
const key = { appName: APP, userId: USER, sessionId: 's1' };

export const bytesOf = async (blob: Blob | undefined): Promise<number[]> =>
  blob ? [...new Uint8Array(await blob.arrayBuffer())] : [];
export const base64Of = (bytes: number[]): string => btoa(String.fromCharCode(...bytes));

/** Everything a user of the artifacts can see under `keys`: names, versions, metadata and payloads. */
export async function snapshotArtifacts(
  artifacts: ArtifactFront,
  keys: { appName: string; userId: string; sessionId: string }[],
): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const k of keys) {
    for (const filename of await artifacts.listArtifactKeys(k)) {
      for (const v of await artifacts.listArtifactVersions({ ...k, filename })) {
        seen.push([k, filename, v, await artifacts.loadArtifact({ ...k, filename, version: v.version })]);
      }
    }
  }
  return seen;
}

export function describeArtifactContract(
  label: string,
  makeDatabase: () => Promise<ArtifactDatabase> | ArtifactDatabase,
): void {
  describe(`artifact contract: ${label}`, () => {
    let database: ArtifactDatabase;
    let opened: ArtifactStore[];
    let store: ArtifactStore;
    let artifacts: ArtifactFront;
    const open = async (): Promise<ArtifactStore> => {
      const s = await database.open();
      opened.push(s);
      return s;
    };

    beforeEach(async () => {
      database = await makeDatabase();
      opened = [];
      store = await open();
      artifacts = store.artifacts;
    });

    afterEach(async () => {
      for (const s of opened) await s.close().catch(() => {});
      await database.dispose?.();
    });

    it('numbers versions from 0 and loads the latest, or the one asked for', async () => {
      expect(await artifacts.saveArtifact({ ...key, filename: 'a.txt', artifact: { text: 'one' } })).toBe(0);
      expect(await artifacts.saveArtifact({ ...key, filename: 'a.txt', artifact: { text: 'two' } })).toBe(1);
      expect(await artifacts.saveArtifact({ ...key, filename: 'b.txt', artifact: { text: 'other' } })).toBe(0);
      expect(await artifacts.loadArtifact({ ...key, filename: 'a.txt' })).toEqual({ text: 'two' });
      expect(await artifacts.loadArtifact({ ...key, filename: 'a.txt', version: 0 })).toEqual({ text: 'one' });
      expect(await artifacts.listVersions({ ...key, filename: 'a.txt' })).toEqual([0, 1]);
    });

    it('gives undefined for a missing name or version, and [] for their listings', async () => {
      await artifacts.saveArtifact({ ...key, filename: 'a.txt', artifact: { text: 'one' } });
      expect(await artifacts.loadArtifact({ ...key, filename: 'nope' })).toBeUndefined();
      expect(await artifacts.loadArtifact({ ...key, filename: 'a.txt', version: 1 })).toBeUndefined();
      expect(await artifacts.loadArtifactBlob({ ...key, filename: 'nope' })).toBeUndefined();
      expect(await artifacts.getArtifactVersion({ ...key, filename: 'a.txt', version: 7 })).toBeUndefined();
      // As in ADK: a number no version has finds nothing, it is not an error.
      for (const version of [-1, 0.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
        expect(await artifacts.loadArtifact({ ...key, filename: 'a.txt', version }), String(version)).toBeUndefined();
        expect(await artifacts.getArtifactVersion({ ...key, filename: 'a.txt', version })).toBeUndefined();
      }
      expect(await artifacts.listVersions({ ...key, filename: 'nope' })).toEqual([]);
      expect(await artifacts.listArtifactVersions({ ...key, filename: 'nope' })).toEqual([]);
      expect(await artifacts.listArtifactKeys({ ...key, sessionId: 'empty' })).toEqual([]);
    });

    it('round-trips every kind of part, empty text and empty bytes included', async () => {
      const parts = {
        bytes: { inlineData: { mimeType: 'image/png', data: base64Of([0, 1, 2, 250, 255]), displayName: 'dot.png' } },
        empty: { inlineData: { mimeType: 'application/octet-stream', data: '' } },
        text: { text: 'héllo 你好' },
        blank: { text: '' },
        ref: { fileData: { fileUri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
        // Every field as given: ADK's own and unknown ones, an empty displayName, no mimeType at all.
        thought: { text: 'hmm', thought: true, thoughtSignature: 'c2ln' },
        video: {
          inlineData: { mimeType: 'video/mp4', data: base64Of([1, 2, 3]), displayName: '' },
          videoMetadata: { startOffset: '1s', fps: 2 },
          later: { nested: [1, null, 'x'] },
        },
        untyped: { inlineData: { data: base64Of([7]) } },
        refNamed: { fileData: { fileUri: 'gs://b/c', displayName: '' }, partMetadata: { k: 'v' } },
        // Base64 as it was written: URL-safe, unpadded, or odd (stray bits after the last byte).
        urlSafe: { inlineData: { mimeType: 'image/png', data: '-_8' } },
        unpadded: { inlineData: { mimeType: 'image/png', data: 'AQ' } },
        stray: { inlineData: { mimeType: 'image/png', data: 'AR' } },
        // RFC 9110 parameters, spaces and quotes included.
        html: { inlineData: { mimeType: 'text/html; charset=utf-8', data: base64Of([60]) } },
        multipart: { fileData: { fileUri: 'u', mimeType: 'multipart/mixed ;boundary="a b;c"' } },
      };
      for (const [filename, artifact] of Object.entries(parts)) {
        await artifacts.saveArtifact({ ...key, filename, artifact });
      }
      for (const [filename, artifact] of Object.entries(parts)) {
        expect(await artifacts.loadArtifact({ ...key, filename })).toEqual(artifact);
      }
    });

    it('records mimeType for every kind, customMetadata, a canonical URI, createTime in ms and the size', async () => {
      const before = Date.now();
      await artifacts.saveArtifact({
        ...key,
        filename: 'notes/today.md',
        artifact: { text: 'héllo' },
        customMetadata: { source: 'tool', tags: ['a'] },
      });
      await artifacts.saveArtifact({
        ...key,
        filename: 'raw',
        artifact: { inlineData: { data: base64Of([1, 2, 3]) } },
      });
      await artifacts.saveArtifact({
        ...key,
        filename: 'user:photo',
        artifact: { inlineData: { mimeType: 'image/jpeg', data: '' } },
      });
      const text = await artifacts.getArtifactVersion({ ...key, filename: 'notes/today.md' });
      expect(text).toMatchObject({
        version: 0,
        mimeType: 'text/plain',
        customMetadata: { source: 'tool', tags: ['a'] },
        size: 6,
      });
      expect(text?.createTime).toBeGreaterThanOrEqual(before);
      expect(text?.createTime).toBeLessThanOrEqual(Date.now());
      expect(text?.canonicalUri).toMatch(
        /^indexeddb:\/\/[^/]+\/apps\/app\/users\/ada\/sessions\/s1\/artifacts\/notes%2Ftoday\.md\/versions\/0$/,
      );
      expect(await artifacts.getArtifactVersion({ ...key, filename: 'raw' })).toMatchObject({
        mimeType: 'application/octet-stream',
        size: 3,
      });
      const photo = await artifacts.listArtifactVersions({ ...key, filename: 'user:photo' });
      expect(photo).toHaveLength(1);
      expect(photo[0]).toMatchObject({ version: 0, mimeType: 'image/jpeg', size: 0 });
      expect(photo[0]?.canonicalUri).toMatch(/\/users\/ada\/artifacts\/user%3Aphoto\/versions\/0$/);
    });

    it("shares user: names across the user's sessions and lists both scopes sorted by code unit", async () => {
      await artifacts.saveArtifact({ ...key, filename: 'user:avatar', artifact: { text: 'me' } });
      await artifacts.saveArtifact({ ...key, filename: 'b', artifact: { text: 'b' } });
      await artifacts.saveArtifact({ ...key, filename: 'B', artifact: { text: 'B' } });
      await artifacts.saveArtifact({ ...key, sessionId: 's2', filename: 'only-s2', artifact: { text: 'x' } });
      expect(await artifacts.listArtifactKeys(key)).toEqual(['B', 'b', 'user:avatar']);
      expect(await artifacts.listArtifactKeys({ ...key, sessionId: 's2' })).toEqual(['only-s2', 'user:avatar']);
      expect(
        await artifacts.saveArtifact({ ...key, sessionId: 's2', filename: 'user:avatar', artifact: { text: 'me 2' } }),
      ).toBe(1);
      expect(await artifacts.loadArtifact({ ...key, filename: 'user:avatar' })).toEqual({ text: 'me 2' });
    });

    it('keeps a session named "user" apart from the user scope', async () => {
      await artifacts.saveArtifact({ ...key, sessionId: 'user', filename: 'x', artifact: { text: 'session' } });
      await artifacts.saveArtifact({ ...key, filename: 'user:x', artifact: { text: 'shared' } });
      expect(await artifacts.listArtifactKeys({ ...key, sessionId: 'user' })).toEqual(['user:x', 'x']);
      expect(await artifacts.listArtifactKeys({ ...key, sessionId: 'other' })).toEqual(['user:x']);
    });

    it('treats nested names as separate artifacts: deleting "doc" keeps "doc/nested"', async () => {
      await artifacts.saveArtifact({ ...key, filename: 'doc', artifact: { text: 'top' } });
      await artifacts.saveArtifact({ ...key, filename: 'doc/nested', artifact: { text: 'inner' } });
      expect(await artifacts.listArtifactKeys(key)).toEqual(['doc', 'doc/nested']);
      await artifacts.deleteArtifact({ ...key, filename: 'doc' });
      expect(await artifacts.listArtifactKeys(key)).toEqual(['doc/nested']);
      expect(await artifacts.loadArtifact({ ...key, filename: 'doc/nested' })).toEqual({ text: 'inner' });
    });

    it('deletes every version; a missing name is a no-op; a later save starts again at 0', async () => {
      await artifacts.deleteArtifact({ ...key, filename: 'never' });
      await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: '0' } });
      await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: '1' } });
      await artifacts.deleteArtifact({ ...key, filename: 'a' });
      expect(await artifacts.loadArtifact({ ...key, filename: 'a', version: 0 })).toBeUndefined();
      expect(await artifacts.listArtifactKeys(key)).toEqual([]);
      expect(await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'again' } })).toBe(0);
    });

    it('isolates apps and users: the same names elsewhere are neither seen nor touched', async () => {
      await artifacts.saveArtifact({ ...key, filename: 'user:a', artifact: { text: 'ada' } });
      await artifacts.saveArtifact({ ...key, filename: 'f', artifact: { text: 'ada' } });
      const bob = { ...key, userId: 'bob' };
      const otherApp = { ...key, appName: 'other' };
      expect(await artifacts.listArtifactKeys(bob)).toEqual([]);
      expect(await artifacts.listArtifactKeys(otherApp)).toEqual([]);
      expect(await artifacts.loadArtifact({ ...bob, filename: 'user:a' })).toBeUndefined();
      expect(await artifacts.saveArtifact({ ...otherApp, filename: 'f', artifact: { text: 'other' } })).toBe(0);
      await artifacts.deleteArtifact({ ...bob, filename: 'f' });
      expect(await artifacts.loadArtifact({ ...key, filename: 'f' })).toEqual({ text: 'ada' });
    });

    it('keeps every payload of concurrent saves from several instances, numbered 0..n-1', async () => {
      const others = [store, await open(), await open()];
      const saves = Array.from({ length: 12 }, (_, i) =>
        (others[i % others.length] as ArtifactStore).artifacts.saveArtifact({
          ...key,
          filename: 'race',
          artifact: { text: `payload ${i}` },
        }),
      );
      const versions = await Promise.all(saves);
      expect([...versions].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
      for (let i = 0; i < 12; i++) {
        expect(await artifacts.loadArtifact({ ...key, filename: 'race', version: versions[i] as number })).toEqual({
          text: `payload ${i}`,
        });
      }
    });

    it('takes a File and gives back a Blob with its bytes, type and name, no base64 involved', async () => {
      const file = new File([new Uint8Array([137, 80, 78, 71, 0, 255])], 'pic.png', { type: 'image/png' });
      expect(await artifacts.saveArtifactBlob({ ...key, filename: 'pic', blob: file, customMetadata: { w: 1 } })).toBe(
        0,
      );
      const loaded = await artifacts.loadArtifactBlob({ ...key, filename: 'pic' });
      expect(loaded?.blob).toBeInstanceOf(Blob);
      expect(await bytesOf(loaded?.blob)).toEqual([137, 80, 78, 71, 0, 255]);
      expect(loaded).toMatchObject({
        version: 0,
        mimeType: 'image/png',
        displayName: 'pic.png',
        size: 6,
        customMetadata: { w: 1 },
      });
      // The same bytes through ADK's Part shape.
      expect(await artifacts.loadArtifact({ ...key, filename: 'pic' })).toEqual({
        inlineData: { mimeType: 'image/png', data: base64Of([137, 80, 78, 71, 0, 255]), displayName: 'pic.png' },
      });
      // And the other way: a Part saved, a Blob loaded; text as a text/plain Blob.
      await artifacts.saveArtifact({
        ...key,
        filename: 'part',
        artifact: { inlineData: { mimeType: 'audio/wav', data: base64Of([9, 8]) } },
      });
      const part = await artifacts.loadArtifactBlob({ ...key, filename: 'part' });
      expect(await bytesOf(part?.blob)).toEqual([9, 8]);
      expect(part?.blob?.type).toBe('audio/wav');
      await artifacts.saveArtifact({ ...key, filename: 'note', artifact: { text: 'hi' } });
      const note = await artifacts.loadArtifactBlob({ ...key, filename: 'note' });
      expect(await note?.blob?.text()).toBe('hi');
      await artifacts.saveArtifactBlob({ ...key, filename: 'typed', blob: new Blob(['x']), mimeType: 'text/csv' });
      expect((await artifacts.getArtifactVersion({ ...key, filename: 'typed' }))?.mimeType).toBe('text/csv');
    });

    it("deletes a session's own artifacts with the session; user: artifacts stay", async () => {
      await store.createSession(key);
      await artifacts.saveArtifact({ ...key, filename: 'mine', artifact: { text: 'x' } });
      await artifacts.saveArtifact({ ...key, filename: 'user:shared', artifact: { text: 'y' } });
      await artifacts.saveArtifact({ ...key, sessionId: 's2', filename: 'mine', artifact: { text: 'z' } });
      await store.deleteSession(key);
      expect(await artifacts.listArtifactKeys(key)).toEqual(['user:shared']);
      expect(await artifacts.loadArtifact({ ...key, filename: 'mine' })).toBeUndefined();
      expect(await artifacts.loadArtifact({ ...key, sessionId: 's2', filename: 'mine' })).toEqual({ text: 'z' });
      await store.createSession(key);
      expect(await artifacts.saveArtifact({ ...key, filename: 'mine', artifact: { text: 'new' } })).toBe(0);
    });

    it('reports exact artifact counts and bytes per session, user and app', async () => {
      await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'abc' } });
      await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'de' } });
      await artifacts.saveArtifactBlob({
        ...key,
        sessionId: 's2',
        filename: 'b',
        blob: new Blob([new Uint8Array(10)]),
      });
      await artifacts.saveArtifact({ ...key, filename: 'user:c', artifact: { text: 'x' } });
      await artifacts.saveArtifact({ ...key, userId: 'bob', filename: 'a', artifact: { text: 'bob' } });
      expect(await artifacts.artifactUsage(key)).toEqual({ artifacts: 1, versions: 2, bytes: 5 });
      expect(await artifacts.artifactUsage({ appName: APP, userId: USER })).toEqual({
        artifacts: 3,
        versions: 4,
        bytes: 16,
      });
      expect(await artifacts.artifactUsage({ appName: APP })).toEqual({ artifacts: 4, versions: 5, bytes: 19 });
      expect(await artifacts.artifactUsage({ appName: 'none' })).toEqual({ artifacts: 0, versions: 0, bytes: 0 });
    });

    describe('bad input is an InvalidInputError and changes nothing', () => {
      const bad: [string, () => Promise<unknown>][] = [
        ['".." segment', () => artifacts.saveArtifact({ ...key, filename: 'a/../b', artifact: { text: 'x' } })],
        ['"\\0" in a name', () => artifacts.saveArtifact({ ...key, filename: 'a\u0000b', artifact: { text: 'x' } })],
        ['a backslash', () => artifacts.saveArtifact({ ...key, filename: 'a\\b', artifact: { text: 'x' } })],
        ['leading "/"', () => artifacts.saveArtifact({ ...key, filename: '/etc', artifact: { text: 'x' } })],
        ['empty name', () => artifacts.saveArtifact({ ...key, filename: '', artifact: { text: 'x' } })],
        ['bare "user:"', () => artifacts.saveArtifact({ ...key, filename: 'user:', artifact: { text: 'x' } })],
        [
          'a part with two payloads',
          () => artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'x', inlineData: { data: '' } } }),
        ],
        ['an empty part', () => artifacts.saveArtifact({ ...key, filename: 'a', artifact: {} })],
        [
          'data that is not base64',
          () => artifacts.saveArtifact({ ...key, filename: 'a', artifact: { inlineData: { data: '%%%' } } }),
        ],
        [
          'a bad MIME type',
          () =>
            artifacts.saveArtifact({ ...key, filename: 'a', artifact: { inlineData: { data: '', mimeType: 'png' } } }),
        ],
        [
          'huge metadata',
          () =>
            artifacts.saveArtifact({
              ...key,
              filename: 'a',
              artifact: { text: 'x' },
              customMetadata: { big: 'x'.repeat(70_000) },
            }),
        ],
        [
          'metadata that is not JSON',
          () =>
            artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'x' }, customMetadata: { f: () => 1 } }),
        ],
        ['not a Blob', () => artifacts.saveArtifactBlob({ ...key, filename: 'a', blob: 'bytes' as unknown as Blob })],
        [
          'a version that is not a number',
          () => artifacts.loadArtifact({ ...key, filename: 'a', version: '0' as never }),
        ],
        [
          'a C1 control in a name',
          () => artifacts.saveArtifact({ ...key, filename: 'a\u0085b', artifact: { text: 'x' } }),
        ],
        [
          'a lone surrogate in a name',
          () => artifacts.saveArtifact({ ...key, filename: 'h\uD800', artifact: { text: 'x' } }),
        ],
        ['a lone surrogate in a loaded name', () => artifacts.loadArtifact({ ...key, filename: 'h\uDC00' })],
        ['a lone surrogate in a listed name', () => artifacts.listArtifactVersions({ ...key, filename: 'h\uD800' })],
        ['a lone surrogate in a version asked for', () => artifacts.getArtifactVersion({ ...key, filename: '\uD800' })],
        [
          'a lone surrogate in a session id',
          () => artifacts.saveArtifact({ ...key, sessionId: 's\uD800', filename: 'a', artifact: { text: 'x' } }),
        ],
        ['a lone surrogate in a user id', () => artifacts.listArtifactKeys({ ...key, userId: '\uDFFFa' })],
        [
          'a part field that is not JSON',
          () => artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'x', thought: () => true } }),
        ],
        [
          'a MIME type with a space in a bare value',
          () =>
            artifacts.saveArtifact({
              ...key,
              filename: 'a',
              artifact: { inlineData: { data: '', mimeType: 'text/html; charset=utf 8' } },
            }),
        ],
        ['an empty app name', () => artifacts.listArtifactKeys({ ...key, appName: '' })],
        ['a session without its user', () => artifacts.artifactUsage({ appName: APP, sessionId: 's1' })],
      ];
      it.each(bad)('%s', async (_, call) => {
        await artifacts.saveArtifact({ ...key, filename: 'a', artifact: { text: 'kept' } });
        const before = await snapshotArtifacts(artifacts, [key]);
        await expect(call()).rejects.toBeInstanceOf(InvalidInputError);
        expect(await snapshotArtifacts(artifacts, [key])).toEqual(before);
      });
    });
  });
}
