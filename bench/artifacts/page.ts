/**
 * The artifact bench page: the store's Blob API through its dedicated worker
 * (the product as used) against a raw IndexedDB put/get of the same Blob in
 * this page, same sizes, same run, interleaved. A load counts until its bytes
 * are in hand (`arrayBuffer()`): both sides return a lazy Blob otherwise.
 */
import { openSessionStore } from '../../src/index.js';
import { committed, request } from '../raw-idb.js';

export interface ArtifactTimes {
  storeSave: number[];
  storeLoad: number[];
  rawPut: number[];
  rawGet: number[];
}

declare global {
  interface Window {
    artifactBench: { run(size: number, repetitions: number, warmup: boolean): Promise<ArtifactTimes> };
  }
}

const key = { appName: 'bench', userId: 'u', sessionId: 's' };
const store = openSessionStore({ dbName: 'bench-artifacts', mode: 'dedicated' });

function randomBlob(size: number): Blob {
  const bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
  return new Blob([bytes], { type: 'application/octet-stream' });
}

let raw: Promise<IDBDatabase> | undefined;
function rawDb(): Promise<IDBDatabase> {
  raw ??= (() => {
    const open = indexedDB.open('bench-artifacts-raw', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('blobs');
    return request(open);
  })();
  return raw;
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function check(blob: Blob | undefined, size: number): Promise<void> {
  const bytes = await blob?.arrayBuffer();
  if (bytes?.byteLength !== size) throw new Error(`loaded ${bytes?.byteLength} bytes, not ${size}`);
}

window.artifactBench = {
  async run(size, repetitions, warmup) {
    const blob = randomBlob(size);
    const db = await rawDb();
    const filename = `f-${size}`;
    const times: ArtifactTimes = { storeSave: [], storeLoad: [], rawPut: [], rawGet: [] };
    const runs = repetitions + (warmup ? 1 : 0);
    for (let rep = 0; rep < runs; rep++) {
      const measured = rep >= (warmup ? 1 : 0);
      const storeRound = async (): Promise<void> => {
        const save = await time(() => store.artifacts.saveArtifactBlob({ ...key, filename, blob }));
        const load = await time(async () =>
          check((await store.artifacts.loadArtifactBlob({ ...key, filename }))?.blob, size),
        );
        await store.artifacts.deleteArtifact({ ...key, filename });
        if (measured) {
          times.storeSave.push(save);
          times.storeLoad.push(load);
        }
      };
      const rawRound = async (): Promise<void> => {
        const put = await time(async () => {
          const tx = db.transaction('blobs', 'readwrite');
          tx.objectStore('blobs').put({ blob }, filename);
          await committed(tx);
        });
        const get = await time(async () => {
          const found = await request(db.transaction('blobs').objectStore('blobs').get(filename));
          await check((found as { blob: Blob } | undefined)?.blob, size);
        });
        const tx = db.transaction('blobs', 'readwrite');
        tx.objectStore('blobs').delete(filename);
        await committed(tx);
        if (measured) {
          times.rawPut.push(put);
          times.rawGet.push(get);
        }
      };
      // Alternate who goes first, so neither always meets a warm or a cold disk.
      if (rep % 2 === 0) {
        await storeRound();
        await rawRound();
      } else {
        await rawRound();
        await storeRound();
      }
    }
    return times;
  },
};
