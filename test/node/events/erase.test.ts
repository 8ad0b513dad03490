/**
 * The erase suite (test/contract/erase.ts) in Node: in-thread, and through a worker's port; and
 * what stays on disk checked record by record: after an erase (with the search index saved before
 * it and saved again after), no object store of the database holds the erased words.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { engineOf } from '../../../src/host/engine-of.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { IndexedDbSessionService, isErased, type Session, watchSession } from '../../../src/index.js';
import { memoryEngineFor } from '../../../src/memory/engine.js';
import { type SearchEngine, searchEngineFor } from '../../../src/search/engine.js';
import { describeErase } from '../../contract/erase.js';
import { storeKinds } from '../store-kinds.js';

let n = 0;
for (const [where, open] of storeKinds('erase')) describeErase(where, open);

/** Every record of every object store of `name`, as text (strings and bytes alike). */
async function everything(indexedDB: IDBFactory, name: string): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const stores = [...db.objectStoreNames];
  const tx = db.transaction(stores, 'readonly');
  const texts = await Promise.all(
    stores.map(
      (store) =>
        new Promise<string>((resolve, reject) => {
          const request = tx.objectStore(store).getAll();
          request.onsuccess = () =>
            resolve(
              JSON.stringify(request.result, (_, v) => (v instanceof ArrayBuffer ? new TextDecoder().decode(v) : v)),
            );
          request.onerror = () => reject(request.error);
        }),
    ),
  );
  db.close();
  return texts.join('\n');
}

describe('an erase, looked at on disk', () => {
  it('leaves the erased words in no record of the database, the saved search index included', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `erase-disk-${n++}`;
    const engine = new StoreEngine({ indexedDB, IDBKeyRange, dbName });
    const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
    const other = { appName: 'app', userId: 'u', sessionId: 'other' };
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const session = await store.createSession(key);
    await store.appendEvent({
      session: await store.createSession(other),
      event: { id: 'o1', timestamp: 1, content: { parts: [{ text: 'ordinary kept' }] } },
    });
    const secret = {
      id: 'e1',
      invocationId: 'i1',
      timestamp: 2,
      content: { parts: [{ text: 'quixotic xylophone zircon' }] },
      actions: { stateDelta: { pet: 'quixotic' } },
    };
    await store.appendEvents({
      session,
      events: [secret, { id: 'e2', invocationId: 'i2', timestamp: 3, content: { parts: [{ text: 'plain words' }] } }],
    });
    await store.memory.addSessionToMemory((await store.getSession(key)) as never);
    // This engine's search index, loaded and saved before the erase.
    const search = searchEngineFor(engine) as SearchEngine;
    expect((await search.searchEvents({ appName: 'app', userId: 'u', query: 'xylophone' })).hits).toHaveLength(1);
    await search.flush();
    expect(await everything(indexedDB, dbName)).toContain('xylophone');

    await engine.erase({ ...key, eventIds: ['e1'] });
    let disk = await everything(indexedDB, dbName);
    expect(disk).not.toContain('xylophone');
    // The state keeps its value, and the erased event the write that set it (still in effect): the
    // word stays in those two places only.
    expect(disk.split('quixotic').length - 1).toBe(2);
    // The loaded index reads the session again and saves its shard again, without the words.
    expect((await search.searchEvents({ appName: 'app', userId: 'u', query: 'ordinary' })).hits).toHaveLength(1);
    expect((await search.searchEvents({ appName: 'app', userId: 'u', query: 'xylophone' })).hits).toEqual([]);
    await search.flush();
    disk = await everything(indexedDB, dbName);
    // Words of the erased event nobody searched for since (a search drops the words it meets).
    expect(disk).not.toContain('zircon');
    expect(disk.split('quixotic').length - 1).toBe(2);
    expect(disk).not.toContain('xylophone');
    expect(disk).toContain('ordinary');
    await store.close();
    await engine.close();
  });
});

describe('an erase in another tab', () => {
  it("reaches this tab's live query, its search and its cached memory index, over the change channel", async () => {
    const indexedDB = new IDBFactory();
    const dbName = `erase-tabs-${n++}`;
    const here = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
    const there = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName });
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const session = await here.createSession(key);
    await here.appendEvent({ session, event: { id: 'e1', timestamp: 1, content: { parts: [{ text: 'walrus' }] } } });
    expect((await here.searchEvents({ appName: 'app', userId: 'u', query: 'walrus' })).hits).toHaveLength(1);
    const seen: (Session | undefined)[] = [];
    const stop = watchSession(here, key).subscribe((s) => {
      if (s.status === 'ready') seen.push(s.value);
    });
    await expect.poll(() => seen.at(-1)?.events.length).toBe(1);
    await here.memory.addSessionToMemory(session);
    expect((await here.memory.searchMemory({ appName: 'app', userId: 'u', query: 'walrus' })).memories).toHaveLength(1);
    // This tab's cached memory index holds the text until it hears the erase.
    const cached = (memoryEngineFor(engineOf(here)) as unknown as { cache: Map<string, unknown> }).cache;
    expect(cached.size).toBe(1);
    await there.erase({ ...key, eventIds: ['e1'] });
    await expect.poll(() => seen.at(-1)?.events.map(isErased)).toEqual([true]);
    await expect.poll(() => cached.size).toBe(0);
    expect((await here.memory.searchMemory({ appName: 'app', userId: 'u', query: 'walrus' })).memories).toEqual([]);
    expect((await here.searchEvents({ appName: 'app', userId: 'u', query: 'walrus' })).hits).toEqual([]);
    stop();
    await there.close();
    await here.close();
  });
});
