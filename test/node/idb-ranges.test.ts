/**
 * The store's promise layer reads ranges two ways: natively, with the factory's
 * own IDBKeyRange, and by stepping a cursor where none can be reached (a bare
 * factory, no globals). Both must return exactly what IndexedDB's own range
 * reads return, for any bounds, open or closed, in either direction, over an
 * object store and over an index with duplicate keys.
 */

import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Bounds, bound, Db, realmOf, type Schema, settle } from '../../src/database/idb/index.js';

interface Row {
  k: [number, number];
  tag: [number];
}
interface TestSchema extends Schema {
  rows: { key: [number, number]; value: Row; indexes: { byTag: [number] } };
}

let n = 0;

async function openBoth(rows: Row[]): Promise<{ native: Db<TestSchema>; stepped: Db<TestSchema> }> {
  const indexedDB = new IDBFactory();
  const request = indexedDB.open(`ranges-${++n}`, 1);
  request.onupgradeneeded = () => {
    const store = request.result.createObjectStore('rows', { keyPath: 'k' });
    store.createIndex('byTag', 'tag');
    for (const row of rows) store.put(row);
  };
  const raw = await settle(request);
  return { native: new Db(realmOf(indexedDB, IDBKeyRange), raw), stepped: new Db(realmOf(indexedDB), raw) };
}

const key = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }));
const rowsArb = fc
  .uniqueArray(key, { selector: (k) => k.join(), maxLength: 40 })
  .map((keys) => keys.map((k): Row => ({ k, tag: [(k[0] * 7 + k[1]) % 4] })));
const boundsArb = fc
  .tuple(key, key, fc.boolean(), fc.boolean())
  .filter(([a, b, lo, uo]) => {
    const c = a[0] - b[0] || a[1] - b[1];
    return c < 0 || (c === 0 && !lo && !uo);
  })
  .map(([a, b, lo, uo]) => bound(a, b, lo, uo));
const tagBoundsArb = fc
  .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.boolean())
  .filter(([a, b, lo, uo]) => a < b || (a === b && !lo && !uo))
  .map(([a, b, lo, uo]) => bound([a], [b], lo, uo));
const direction = fc.constantFrom<IDBCursorDirection>('next', 'prev');

async function walk(db: Db<TestSchema>, on: 'store' | 'index', query: Bounds, dir: IDBCursorDirection, skip: number) {
  const store = db.transaction('rows').objectStore('rows');
  const source = on === 'store' ? store : store.index('byTag');
  const seen: unknown[] = [];
  let cursor = await source.openCursor(query, dir);
  if (cursor && skip > 1) cursor = await cursor.advance(skip);
  while (cursor) {
    seen.push([cursor.key, cursor.primaryKey, cursor.value]);
    cursor = await cursor.continue();
  }
  return seen;
}

async function reads(db: Db<TestSchema>, on: 'store' | 'index', query: Bounds, count: number) {
  const store = db.transaction('rows').objectStore('rows');
  const source = on === 'store' ? store : store.index('byTag');
  return {
    all: await source.getAll(query),
    some: await source.getAll(query, count),
    keys: await source.getAllKeys(query, count),
    count: await source.count(query),
  };
}

describe('range reads without IDBKeyRange', () => {
  it('equal the native ones on an object store, any bounds, either direction, with advance', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, boundsArb, direction, fc.nat(5), async (rows, query, dir, skip) => {
        const { native, stepped } = await openBoth(rows);
        expect(await reads(stepped, 'store', query, skip)).toEqual(await reads(native, 'store', query, skip));
        expect(await walk(stepped, 'store', query, dir, skip)).toEqual(await walk(native, 'store', query, dir, skip));
        native.close();
      }),
      { numRuns: 150 },
    );
  });

  it('equal the native ones on an index with duplicate keys', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, tagBoundsArb, direction, fc.nat(5), async (rows, query, dir, skip) => {
        const { native, stepped } = await openBoth(rows);
        expect(await reads(stepped, 'index', query, skip)).toEqual(await reads(native, 'index', query, skip));
        expect(await walk(stepped, 'index', query, dir, skip)).toEqual(await walk(native, 'index', query, dir, skip));
        native.close();
      }),
      { numRuns: 150 },
    );
  });

  it('delete the same records as a native range delete', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, boundsArb, async (rows, query) => {
        const { native, stepped } = await openBoth(rows);
        const left = async (db: Db<TestSchema>): Promise<Row[]> => {
          const tx = db.transaction('rows', 'readwrite');
          await tx.objectStore('rows').delete(query);
          const all = await tx.objectStore('rows').getAll();
          tx.abort();
          await tx.done.catch(() => {});
          return all;
        };
        expect(await left(stepped)).toEqual(await left(native));
        native.close();
      }),
      { numRuns: 100 },
    );
  });
});
