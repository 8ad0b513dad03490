/**
 * The index keeps up with the store by itself: appends, replacements, imports
 * and deletions show in the next search; an index saved behind the events (a
 * crash between a commit and its indexing) catches up on its own; one of an
 * older format, or none at all, is rebuilt from the events.
 */
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import MiniSearch from 'minisearch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCHEMA_VERSION } from '../../src/database/open.js';
import { eventRecord } from '../../src/database/records/index.js';
import { SEARCH_FORMAT, type SearchShardRecord } from '../../src/database/records/search.js';
import { engineOf } from '../../src/host/engine-of.js';
import { IndexedDbSessionService, InvalidInputError, type Session } from '../../src/index.js';
import { type SearchEngine, searchEngineFor } from '../../src/search/engine.js';
import { buildV1Database } from '../fixtures/v1-layout.js';
import { freshDatabase, freshStore, say, textEvent } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
const open: IndexedDbSessionService[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of open.splice(0)) await store.close();
});
const track = (store: IndexedDbSessionService) => {
  open.push(store);
  return store;
};
const find = async (store: IndexedDbSessionService, query: string, more: object = {}) =>
  (await store.searchEvents({ ...ids, query, ...more })).hits.map((h) => `${h.sessionId}/${h.eventId}`).sort();
/** Saves the index now (the store does it after 2 s of quiet). */
const flush = (store: IndexedDbSessionService) => (searchEngineFor(engineOf(store)) as SearchEngine).flush();

function rawDatabase(indexedDB: IDBFactory, dbName: string): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(dbName);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function savedShards(indexedDB: IDBFactory, dbName: string): Promise<SearchShardRecord[]> {
  const db = await rawDatabase(indexedDB, dbName);
  const all = await new Promise<SearchShardRecord[]>((resolve, reject) => {
    const request = db.transaction('searchShards').objectStore('searchShards').getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return all;
}

describe('the index follows the store', () => {
  it('shows appends, replacements, deletions and imports in the next search', async () => {
    const store = track(freshStore());
    const trip = await store.createSession({ ...ids, sessionId: 'trip' });
    await say(store, trip, [['a', 'book a flight to Lisbon']]);
    expect(await find(store, 'lisbon')).toEqual(['trip/a']);

    await say(store, trip, [['b', 'and a hotel in Lisbon']]);
    expect(await find(store, 'lisbon')).toEqual(['trip/a', 'trip/b']);

    // The same id again replaces the event: its old words are gone, its new ones found.
    await store.appendEvent({ session: trip, event: textEvent('a', 'book a train to Porto') });
    expect(await find(store, 'lisbon')).toEqual(['trip/b']);
    expect(await find(store, 'porto')).toEqual(['trip/a']);

    await store.importSessions([{ ...trip, id: 'imported', events: [textEvent('x', 'Lisbon by night')] }]);
    expect(await find(store, 'lisbon')).toEqual(['imported/x', 'trip/b']);
    // An import that replaces a session replaces what is found in it.
    await store.importSessions([{ ...trip, id: 'imported', events: [textEvent('y', 'Madrid by day')] }], {
      onConflict: 'replace',
    });
    expect(await find(store, 'lisbon')).toEqual(['trip/b']);
    expect(await find(store, 'madrid')).toEqual(['imported/y']);

    await store.deleteSession({ ...ids, sessionId: 'trip' });
    expect(await find(store, 'lisbon')).toEqual([]);
    // A new session under the old id is a new incarnation: nothing of the deleted one comes back.
    const again = await store.createSession({ ...ids, sessionId: 'trip' });
    await say(store, again, [['c', 'Lisbon, once more']]);
    expect(await find(store, 'lisbon')).toEqual(['trip/c']);
  });

  it('hears another tab’s writes, and never returns what that tab replaced meanwhile', async () => {
    const db = freshDatabase();
    const mine = track(db.open());
    const theirs = track(db.open());
    const s = await mine.createSession({ ...ids, sessionId: 's' });
    await say(mine, s, [['a', 'the harbour at dawn']]);
    expect(await find(mine, 'harbour')).toEqual(['s/a']);
    const copy = (await theirs.getSession({ ...ids, sessionId: 's' })) as Session;
    await theirs.appendEvent({ session: copy, event: textEvent('a', 'the station at noon') });
    // Whether or not the broadcast has arrived yet, the replaced text is not a hit.
    expect(await find(mine, 'harbour')).toEqual([]);
    await expect.poll(() => find(mine, 'station'), { timeout: 10_000 }).toEqual(['s/a']);
  });

  it('keeps each app and user to their own events, whatever the ids look like', async () => {
    const store = track(freshStore());
    const pairs = [
      ['chat', 'ada'],
      ['chat', 'bob'],
      ['other', 'ada'],
      ['chat\u0000ada', ''],
      ['chat', 'ada\u0000'],
      ['__proto__', 'constructor'],
    ].filter(([, u]) => u !== '');
    for (const [appName, userId] of pairs) {
      const s = await store.createSession({ appName: appName as string, userId: userId as string, sessionId: 'same' });
      await say(store, s, [['e', `secret of ${appName}/${userId}`]]);
    }
    for (const [appName, userId] of pairs) {
      const { hits } = await store.searchEvents({
        appName: appName as string,
        userId: userId as string,
        query: 'secret',
      });
      expect(hits.map((h) => h.snippet.text)).toEqual([`secret of ${appName}/${userId}`]);
    }
  });
});

describe('never a wrong hit', () => {
  it('checks each hit against the stored event, even one changed behind the index’s back', async () => {
    const db = freshDatabase();
    const store = track(db.open());
    const s = await store.createSession({ ...ids, sessionId: 's' });
    await say(store, s, [['a', 'the harbour at dawn']]);
    expect(await find(store, 'harbour')).toEqual(['s/a']);
    // A write no notice told of (a release without them, a crash between commit and broadcast).
    const raw = await rawDatabase(db.indexedDB, db.dbName);
    await new Promise((resolve) => {
      const tx = raw.transaction('events', 'readwrite');
      const events = tx.objectStore('events');
      events.openCursor().onsuccess = function () {
        const cursor = this.result;
        if (!cursor) return;
        cursor.update(eventRecord(cursor.value.uid, cursor.value.seq, textEvent('a', 'the station at noon')));
        cursor.continue();
      };
      tx.oncomplete = resolve;
    });
    raw.close();
    expect(await find(store, 'harbour')).toEqual([]);
  });
});

describe('catching up', () => {
  it('finds, after a crash between commits and indexing, every event the crashed store acknowledged', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'alpha one']]);
    expect(await find(first, 'alpha')).toEqual(['s/a']);
    await flush(first);
    // Acknowledged, then the store goes away before its index reads them or saves again.
    await say(first, s, [
      ['b', 'alpha two'],
      ['a', 'omega replaced'],
    ]);
    const other = await first.createSession({ ...ids, sessionId: 'late' });
    await say(first, other, [['c', 'alpha three']]);
    await first.close();
    const [saved] = await savedShards(db.indexedDB, db.dbName);
    expect(saved?.sessions.map((m) => [m.sessionId, m.revision])).toEqual([['s', 1]]);

    const next = track(db.open());
    expect(await find(next, 'alpha')).toEqual(['late/c', 's/b']);
    expect(await find(next, 'omega')).toEqual(['s/a']);
  });

  it('forgets, on load, sessions deleted while no index was open', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'gone soon']]);
    await find(first, 'gone');
    await flush(first);
    await first.close();
    const plain = track(db.open({ search: false }));
    await plain.deleteSession({ ...ids, sessionId: 's' });
    const next = track(db.open());
    expect(await find(next, 'gone')).toEqual([]);
    await flush(next);
    expect((await savedShards(db.indexedDB, db.dbName))[0]?.sessions).toEqual([]);
  });

  it('rebuilds from the events an index saved in an older format', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'kept words']]);
    await first.close();
    // A shard as an older release would have left it: another format, a stale claim of what it holds.
    const raw = await rawDatabase(db.indexedDB, db.dbName);
    await new Promise((resolve) => {
      const tx = raw.transaction('searchShards', 'readwrite');
      tx.objectStore('searchShards').put({
        ...ids,
        shard: 3,
        format: SEARCH_FORMAT - 1,
        sessions: [],
        index: 'not an index this release can read',
      });
      tx.oncomplete = resolve;
    });
    raw.close();
    const next = track(db.open());
    expect(await find(next, 'kept')).toEqual(['s/a']);
    await flush(next);
    const shards = await savedShards(db.indexedDB, db.dbName);
    expect(shards.map((r) => [r.shard, r.format])).toEqual([[0, SEARCH_FORMAT]]);
  });

  it('rebuilds an index saved by the release that folded one code point at a time', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'ﾃﾞｰﾀﾍﾞｰｽ']]);
    await first.close();
    // What that release indexed ﾃﾞｰﾀﾍﾞｰｽ under: each ﾞ folded alone to a lone mark that split the run.
    const oldTerms = ['テ', '\u3099', 'ータ', 'タヘ', 'ヘ', '\u3099', 'ース', 'ス'];
    const raw = await rawDatabase(db.indexedDB, db.dbName);
    const read = <T>(store: string): Promise<T[]> =>
      new Promise((resolve) => {
        const request = raw.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result);
      });
    const [session] = await read<{ uid: string; revision: number; nextSeq: number }>('sessions');
    const [event] = await read<{ seq: number }>('events');
    const old = new MiniSearch({ fields: ['text'], tokenize: () => oldTerms, processTerm: (t) => t });
    old.add({ id: `${session?.uid}/${event?.seq}`, text: 'ﾃﾞｰﾀﾍﾞｰｽ' });
    // Its marker is current: only the format says the index is not this release's.
    const mark = { uid: session?.uid, sessionId: 's', revision: session?.revision, nextSeq: session?.nextSeq };
    await new Promise((resolve) => {
      const tx = raw.transaction('searchShards', 'readwrite');
      tx.objectStore('searchShards').put({
        ...ids,
        shard: 0,
        format: 1,
        sessions: [{ ...mark, seqs: [event?.seq] }],
        index: JSON.stringify(old),
      });
      tx.oncomplete = resolve;
    });
    raw.close();
    const next = track(db.open());
    expect(await find(next, 'データベース')).toEqual(['s/a']);
  });

  it('loads a saved index without reading the events again', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'remembered']]);
    await find(first, 'remembered');
    await flush(first);
    await first.close();
    const next = track(db.open());
    const reads = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    expect(await find(next, 'remembered')).toEqual(['s/a']);
    expect(reads.mock.contexts.map((store) => (store as IDBObjectStore).name)).not.toContain('events');
  });

  it('finds an event committed after its saved index was read and before the load finished', async () => {
    const db = freshDatabase();
    const first = db.open();
    const s = await first.createSession({ ...ids, sessionId: 's' });
    await say(first, s, [['a', 'harbour one']]);
    await find(first, 'harbour');
    await flush(first);
    await first.close();
    // The saved index knows s at its stored revision: nothing marks it to be read again on load.
    const next = track(db.open());
    const session = (await next.getSession({ ...ids, sessionId: 's' })) as Session;
    const engine = engineOf(next);
    const transact = engine.transact.bind(engine);
    let loading = true;
    vi.spyOn(engine, 'transact').mockImplementation(async (work) => {
      if (!loading) return transact(work);
      loading = false;
      const loaded = await transact(work);
      // Acknowledged between the load's read and its end: only its change notice tells the index.
      await next.appendEvent({ session, event: textEvent('b', 'harbour two') });
      return loaded;
    });
    expect(await find(next, 'harbour')).toEqual(['s/a', 's/b']);
  });
});

describe('input and options', () => {
  it('refuses bad requests with InvalidInputError naming the field', async () => {
    const store = track(freshStore());
    const bad: [object, RegExp][] = [
      [{ ...ids, query: '' }, /query: must not be empty/],
      [{ ...ids, query: '   ' }, /query: must not be empty/],
      [{ ...ids, query: 'x'.repeat(1025) }, /query: must be at most 1024/],
      [{ ...ids, query: 7 }, /query: must be string/],
      [{ appName: 'chat', query: 'x' }, /userId: is required/],
      [{ ...ids, query: 'x', limit: 0 }, /limit: must be at least 1/],
      [{ ...ids, query: 'x', limit: 101 }, /limit: must be at most 100/],
      [{ ...ids, query: 'x', offset: -1 }, /offset: must not be negative/],
      [{ ...ids, query: 'x', match: 'some' }, /match: must be one of/],
      [{ ...ids, query: 'x', sessionId: '' }, /sessionId: must not be empty/],
    ];
    for (const [request, message] of bad) {
      const error = await store.searchEvents(request as never).catch((e: unknown) => e);
      expect(error, JSON.stringify(request).slice(0, 80)).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('keeps no index with `search: false`, and says so', async () => {
    const db = freshDatabase({ search: false });
    const store = track(db.open());
    const s = await store.createSession({ ...ids, sessionId: 's' });
    await say(store, s, ['anything']);
    await expect(store.searchEvents({ ...ids, query: 'anything' })).rejects.toThrow(/search is turned off/);
    expect(await savedShards(db.indexedDB, db.dbName)).toEqual([]);
  });
});

describe('the schema step', () => {
  it('gives a database written before search its index, built from the events it holds', async () => {
    const indexedDB = new IDBFactory();
    await buildV1Database(indexedDB, 'before-search');
    const store = track(new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'before-search' }));
    const { hits } = await store.searchEvents({ ...ids, query: 'lisbon' });
    expect(hits.map((h) => [h.sessionId, h.eventId])).toEqual([['trip', 'trip-1']]);
    expect((await indexedDB.databases()).find((d) => d.name === 'before-search')?.version).toBe(SCHEMA_VERSION);
  });
});
