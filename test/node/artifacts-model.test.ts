/**
 * Model-based: random rounds of concurrent saves from several clients (two
 * engines on one database, one of them behind two worker clients), with
 * deletions between rounds. After each round every name holds exactly the
 * payloads the model says, numbered 0..n-1 without gaps, each payload once.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import { type ArtifactFront, connectSessionStore, IndexedDbSessionService } from '../../src/index.js';

const key = { appName: 'app', userId: 'ada', sessionId: 's1' };
const names = ['a', 'a/b', 'user:shared', 'b'];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

let n = 0;
function clients(): ArtifactFront[] {
  const indexedDB = new IDBFactory();
  const dbName = `model-${n++}`;
  const inThread = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
  const engine = new StoreEngine({ indexedDB, dbName });
  const remote = [0, 1].map(() => {
    const { port1, port2 } = new MessageChannel();
    exposeEngine(engine, port1);
    return connectSessionStore(port2, { dbName });
  });
  closers.push(async () => {
    for (const c of remote) await c.close();
    await engine.close();
    await inThread.close();
  });
  return [inThread.artifacts, ...remote.map((c) => c.artifacts)];
}

const round = fc.record({
  saves: fc.array(fc.record({ client: fc.nat(2), name: fc.constantFrom(...names) }), { maxLength: 12 }),
  deletes: fc.subarray(names),
});

it('keeps every payload of concurrent saves from several clients, numbered without gaps', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(round, { minLength: 1, maxLength: 5 }), async (rounds) => {
      const all = clients();
      const model = new Map<string, string[]>(names.map((name) => [name, []]));
      let payload = 0;
      for (const { saves, deletes } of rounds) {
        await Promise.all(
          saves.map(({ client, name }) => {
            const text = `p${payload++}`;
            model.get(name)?.push(text);
            return (all[client] as ArtifactFront).saveArtifact({ ...key, filename: name, artifact: { text } });
          }),
        );
        for (const name of names) {
          const versions = await all[0]?.listVersions({ ...key, filename: name });
          const expected = model.get(name) ?? [];
          expect(versions).toEqual([...expected.keys()]);
          const stored = await Promise.all(
            (versions ?? []).map(async (version) => {
              const part = await all[1]?.loadArtifact({ ...key, filename: name, version });
              return part?.text;
            }),
          );
          expect([...stored].sort()).toEqual([...expected].sort());
        }
        for (const name of deletes) {
          await all[2]?.deleteArtifact({ ...key, filename: name });
          model.set(name, []);
        }
      }
    }),
    { numRuns: 25 },
  );
});
