/**
 * A live query is usable without a binding package: it keeps the Svelte store
 * contract (checked with Svelte's own `get` and `derived`) and the TC39
 * Observable interop (checked with RxJS's `from`), ending both when the store
 * closes. Components in Svelte 5 and Vue 3 are in test/browser/live-frameworks.test.ts.
 */
import { IDBFactory } from 'fake-indexeddb';
import { filter, firstValueFrom, from, map, toArray } from 'rxjs';
import { derived, get } from 'svelte/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbSessionService,
  type LiveObservable,
  type LiveSnapshot,
  type Session,
  watchSession,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 's1' };
let n = 0;
const open: IndexedDbSessionService[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

function store(): IndexedDbSessionService {
  const opened = new IndexedDbSessionService({ dbName: `interop-${n++}`, indexedDB: new IDBFactory() });
  open.push(opened);
  return opened;
}

describe('the Svelte store contract', () => {
  it('subscribe calls back at once with the current snapshot, then with each new one; get and derived work', async () => {
    const db = store();
    const session = await db.createSession(key);
    const query = watchSession(db, key);
    expect(get(query).status).toBe('loading');
    const count = derived(query, (snapshot) => snapshot.value?.events.length ?? -1);
    const counts: number[] = [];
    const stop = count.subscribe((value) => counts.push(value));
    expect(counts).toEqual([-1]);
    await expect.poll(() => counts.at(-1)).toBe(0);
    await db.appendEvent({ session, event: makeEvent() });
    await expect.poll(() => counts.at(-1)).toBe(1);
    expect(get(query).status).toBe('ready');
    // Svelte calls what subscribe returns, RxJS its `unsubscribe`: it is both.
    const unsubscribe = query.subscribe(() => {});
    expect(typeof unsubscribe).toBe('function');
    expect(typeof unsubscribe.unsubscribe).toBe('function');
    unsubscribe.unsubscribe();
    stop();
  });
});

describe('the Observable interop (RxJS from)', () => {
  it('emits snapshots and completes once the store closes', async () => {
    const db = store();
    const session = await db.createSession(key);
    const snapshots = from(watchSession(db, key));
    const all = firstValueFrom(snapshots.pipe(toArray()));
    const counts = snapshots.pipe(
      filter((s): s is Extract<LiveSnapshot<Session | undefined>, { status: 'ready' }> => s.status === 'ready'),
      map((s) => s.value?.events.length),
    );
    await expect(firstValueFrom(counts)).resolves.toBe(0);
    await db.appendEvent({ session, event: makeEvent() });
    await expect(firstValueFrom(counts.pipe(filter((c) => c === 1)))).resolves.toBe(1);
    await db.close();
    const seen = await all;
    expect(seen[0]?.status).toBe('loading');
    expect(seen.at(-1)?.status).toBe('closed');
    expect(seen.map((s) => s.value?.events.length).filter((c) => c !== undefined)).toEqual([0, 1, 1]);
  });

  it('answers to the interop key RxJS uses here, and its subscription unsubscribes', async () => {
    const db = store();
    await db.createSession(key);
    const query = watchSession(db, key);
    // RxJS's own choice: the symbol where the environment has one, else the string.
    const interop = typeof Symbol.observable === 'symbol' ? Symbol.observable : '@@observable';
    const observable = (query as unknown as Record<PropertyKey, () => LiveObservable<Session | undefined>>)[
      interop
    ]?.();
    expect((observable as unknown as Record<PropertyKey, () => unknown>)[interop]?.()).toBe(observable);
    const heard: string[] = [];
    const subscription = observable?.subscribe({ next: (s) => heard.push(s.status) });
    await expect.poll(() => heard).toEqual(['loading', 'ready']);
    subscription?.unsubscribe();
    expect(query.getSnapshot().status).toBe('ready');
  });

  it('answers to a Symbol.observable that a polyfill defines after this module loaded', async () => {
    const db = store();
    await db.createSession(key);
    const hadOne = Object.hasOwn(Symbol, 'observable');
    if (!hadOne) Object.defineProperty(Symbol, 'observable', { value: Symbol('observable'), configurable: true });
    try {
      const query = watchSession(db, key);
      const observable = query[Symbol.observable]();
      const heard: string[] = [];
      const subscription = observable.subscribe((s) => heard.push(s.status));
      await expect.poll(() => heard).toEqual(['loading', 'ready']);
      subscription.unsubscribe();
    } finally {
      if (!hadOne) Reflect.deleteProperty(Symbol, 'observable');
    }
  });
});
