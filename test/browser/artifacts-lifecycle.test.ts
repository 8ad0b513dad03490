/**
 * Artifacts in a real browser beyond the contract: a worker terminated during
 * saves of large Blobs leaves each version whole or absent (every acknowledged
 * one whole), and an archive exported in-thread imports through a worker with
 * every byte intact.
 */
import { describe, expect, it } from 'vitest';
import { exportArchiveToBlob, IndexedDbSessionService, importArchive, StoreClosedError } from '../../src/index.js';
import { snapshotArtifacts } from '../contract/artifacts.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from './helpers.js';

const key = { appName: 'app', userId: 'ada', sessionId: 's1' };
const MB = 1024 * 1024;

/** `size` bytes where byte i is (i + seed) % 251: any missing or moved chunk shows. */
function pattern(size: number, seed: number): Blob {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i + seed) % 251;
  return new Blob([bytes], { type: 'application/octet-stream' });
}

async function matches(blob: Blob | undefined, size: number, seed: number): Promise<boolean> {
  if (!blob || blob.size !== size) return false;
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return bytes.every((b, i) => b === (i + seed) % 251);
}

describe('artifacts in the browser', () => {
  it('keeps every acknowledged save whole, and no save in part, when the worker is killed mid-write', async () => {
    const dbName = uniqueDbName('artifact-crash');
    const size = 8 * MB;
    let failed = 0;
    let acknowledged = 0;
    for (let trial = 0; trial < 4; trial++) {
      const { client, worker } = dedicatedClient(dbName);
      await client.ready;
      const saves = Array.from({ length: 4 }, (_, i) =>
        client.artifacts
          .saveArtifactBlob({ ...key, filename: `t${trial}`, blob: pattern(size, trial * 10 + i) })
          .then((version) => ({ i, version }))
          .catch((error: unknown) => ({ i, error })),
      );
      // Killed after the first acknowledgement, or at once in trial 0.
      if (trial === 0) worker.terminate();
      else await Promise.race(saves).then(() => worker.terminate());
      const outcomes = await Promise.all(saves);
      const { client: reader, worker: readerWorker } = dedicatedClient(dbName);
      const stored = await reader.artifacts.listArtifactVersions({ ...key, filename: `t${trial}` });
      for (const o of outcomes) {
        if ('error' in o) {
          failed++;
          expect(o.error).toBeInstanceOf(StoreClosedError);
        } else {
          acknowledged++;
          expect(stored.map((v) => v.version)).toContain(o.version);
        }
      }
      // Whatever is stored is one save's payload, whole: versions are numbered without gaps.
      expect(stored.map((v) => v.version)).toEqual([...stored.keys()]);
      for (const v of stored) {
        const loaded = await reader.artifacts.loadArtifactBlob({ ...key, filename: `t${trial}`, version: v.version });
        const seeds = [0, 1, 2, 3].map((i) => trial * 10 + i);
        const whole = await Promise.all(seeds.map((seed) => matches(loaded?.blob, size, seed)));
        expect(whole.filter(Boolean)).toHaveLength(1);
      }
      await reader.close();
      readerWorker.terminate();
    }
    // The trials did crash mid-write: some saves were cut off, some acknowledged.
    expect(failed).toBeGreaterThan(0);
    expect(acknowledged).toBeGreaterThan(0);
    await deleteDatabase(dbName);
  }, 120_000);

  // In WebKit's ephemeral sessions (Safari's Private Browsing; WebKitGTK under automation) the import's Blobs are
  // refused: its transaction must abort whole, then the import runs once more with ArrayBuffers.
  it('imports files among other parts as the first write of bytes of a store, each once, in every engine', async () => {
    const source = new IndexedDbSessionService({ dbName: uniqueDbName('archive-mixed-source') });
    const other = { ...key, sessionId: 's2' };
    for (const k of [key, other]) await source.createSession(k);
    await source.artifacts.saveArtifactBlob({ ...key, filename: 'a.bin', blob: pattern(1000, 1) });
    await source.artifacts.saveArtifact({ ...key, filename: 'notes.md', artifact: { text: 'between the files' } });
    await source.artifacts.saveArtifactBlob({ ...other, filename: 'b.bin', blob: pattern(2000, 2) });
    await source.artifacts.saveArtifactBlob({ ...key, filename: 'user:c.bin', blob: pattern(3000, 3) });
    const archive = await exportArchiveToBlob(source);
    const dbName = uniqueDbName('archive-mixed-target');
    const target = new IndexedDbSessionService({ dbName });
    expect(await importArchive(target, archive)).toMatchObject({ sessions: 2, artifacts: 4 });
    expect(await matches((await target.artifacts.loadArtifactBlob({ ...key, filename: 'a.bin' }))?.blob, 1000, 1)).toBe(
      true,
    );
    expect(
      await matches((await target.artifacts.loadArtifactBlob({ ...other, filename: 'b.bin' }))?.blob, 2000, 2),
    ).toBe(true);
    expect(await target.artifacts.artifactUsage({ appName: 'app' })).toEqual({
      artifacts: 4,
      versions: 4,
      bytes: 6017,
    });
    const strip = (s: unknown[]) => JSON.stringify(s).replaceAll(/indexeddb:\/\/[^/]+\//g, '');
    expect(strip(await snapshotArtifacts(target.artifacts, [key, other]))).toBe(
      strip(await snapshotArtifacts(source.artifacts, [key, other])),
    );
    await target.close();
    await source.close();
    await deleteDatabase(dbName);
  }, 60_000);

  it('imports an archive through a worker with every byte intact', async () => {
    const source = new IndexedDbSessionService({ dbName: uniqueDbName('archive-source') });
    await source.createSession(key);
    await source.artifacts.saveArtifactBlob({ ...key, filename: 'big.bin', blob: pattern(3 * MB, 7) });
    await source.artifacts.saveArtifact({ ...key, filename: 'user:note', artifact: { text: 'héllo' } });
    const archive = await exportArchiveToBlob(source);
    const dbName = uniqueDbName('archive-target');
    const { client } = dedicatedClient(dbName);
    expect(await importArchive(client, archive)).toMatchObject({ sessions: 1, artifacts: 2 });
    const loaded = await client.artifacts.loadArtifactBlob({ ...key, filename: 'big.bin' });
    expect(await matches(loaded?.blob, 3 * MB, 7)).toBe(true);
    const strip = (s: unknown[]) => JSON.stringify(s).replaceAll(/indexeddb:\/\/[^/]+\//g, '');
    expect(strip(await snapshotArtifacts(client.artifacts, [key]))).toBe(
      strip(await snapshotArtifacts(source.artifacts, [key])),
    );
    await client.close();
    await source.close();
    await deleteDatabase(dbName);
  }, 60_000);
});
