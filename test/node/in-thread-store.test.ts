/**
 * `openSessionStore({ mode: 'in-thread' })` loads its engine on first use: what
 * happens when it is closed before that, when the download fails, and what a
 * partial (streaming) event costs. `openSessionStore` takes no factory: in
 * Node it runs on IndexedDB's globals, installed here as the README says.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';

let n = 0;
const dbName = () => `in-thread-${++n}`;
const key = { appName: 'app', userId: 'u' };

/** The page-side modules only: the package's Node face also exposes the engine itself, statically. */
async function load() {
  return { ...(await import('../../src/client/open.js')), ...(await import('../../src/core/errors.js')) };
}

afterEach(() => {
  vi.doUnmock('../../src/sessions/engine.js');
  vi.resetModules();
});

describe('in-thread store', () => {
  it('closed before its first call: every later call fails with StoreClosedError and no database is created', async () => {
    const { openSessionStore, StoreClosedError } = await load();
    const name = dbName();
    const store = openSessionStore({ dbName: name, mode: 'in-thread' });
    await store.close();
    await expect(store.createSession(key)).rejects.toBeInstanceOf(StoreClosedError);
    await expect(store.listApps()).rejects.toBeInstanceOf(StoreClosedError);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(name);
  });

  it('a failed engine download is a StorageError naming the cause, the next call retries, close() still works', async () => {
    let offline = true;
    const real = await vi.importActual<typeof import('../../src/sessions/engine.js')>('../../src/sessions/engine.js');
    vi.doMock('../../src/sessions/engine.js', () => {
      if (offline) throw new Error('network is down');
      return real;
    });
    const { openSessionStore, StorageError } = await load();
    const store = openSessionStore({ dbName: dbName(), mode: 'in-thread' });

    const failure = await store.createSession(key).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    expect((failure as Error).message).toMatch(/engine could not be loaded/);
    expect((failure as Error).cause).toBeInstanceOf(Error);

    offline = false;
    vi.resetModules();
    const session = await store.createSession({ ...key, sessionId: 's' });
    expect((await store.getSession({ ...key, sessionId: 's' }))?.id).toBe(session.id);
    await store.close();
  });

  it('loads search and memory on first use; a failed download of either is a StorageError and retried', async () => {
    let offline = true;
    const real = await vi.importActual<typeof import('../../src/search/engine.js')>('../../src/search/engine.js');
    vi.doMock('../../src/search/engine.js', () => {
      if (offline) throw new Error('network is down');
      return real;
    });
    const { openSessionStore, StorageError } = await load();
    const store = openSessionStore({ dbName: dbName(), mode: 'in-thread' });
    const session = await store.createSession({ ...key, sessionId: 's' });
    await store.appendEvent({ session, event: makeEvent({ content: { parts: [{ text: 'ホテルの予約' }] } }) });
    const failure = await store.searchEvents({ ...key, query: 'ホテル' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    expect((failure as Error).message).toMatch(/search engine could not be loaded/);
    offline = false;
    vi.resetModules();
    expect((await store.searchEvents({ ...key, query: 'ホテル' })).hits.map((h) => h.sessionId)).toEqual(['s']);
    await store.memory.addSessionToMemory(session);
    expect((await store.memory.searchMemory({ ...key, query: '予約' })).memories).toHaveLength(1);
    await store.close();
  });

  it('closing a store whose engine never loaded resolves', async () => {
    vi.doMock('../../src/sessions/engine.js', () => {
      throw new Error('network is down');
    });
    const { openSessionStore, StoreClosedError } = await load();
    const store = openSessionStore({ dbName: dbName(), mode: 'in-thread' });
    await expect(store.listApps()).rejects.toThrow(/engine could not be loaded/);
    await expect(store.close()).resolves.toBeUndefined();
    await expect(store.listApps()).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('hands a partial event back untouched, unchecked and unstored, as ADK does', async () => {
    const { openSessionStore } = await load();
    const store = openSessionStore({ dbName: dbName(), mode: 'in-thread' });
    const session: Session = await store.createSession(key);
    // Not storable (a function), and never looked at: a partial event is only streamed to the UI.
    const partial = { ...makeEvent({ partial: true }), customMetadata: { render: () => 'chunk' } };
    await expect(store.appendEvent({ session, event: partial })).resolves.toBe(partial);
    expect(session.events).toEqual([]);
    expect((await store.getSession({ ...key, sessionId: session.id }))?.events).toEqual([]);
    await store.close();
  });

  it('serves ADK through the adapter, and what it stores survives a reopen', async () => {
    const { AdkSessionService } = await import('../../src/adk/index.js');
    const { openSessionStore } = await load();
    const name = dbName();
    const first = new AdkSessionService(openSessionStore({ dbName: name, mode: 'in-thread' }));
    const session = await first.createSession({ ...key, state: { 'user:name': 'Ada', topic: 'boats' } });
    await first.close();
    const again = new AdkSessionService(openSessionStore({ dbName: name, mode: 'in-thread' }));
    expect((await again.getSession({ ...key, sessionId: session.id }))?.state).toEqual({
      'user:name': 'Ada',
      topic: 'boats',
    });
    await again.close();
    // The adapter now comes through the public entry, loaded afresh (modules are reset after each
    // test): transforming it took over 5 s on a loaded 2-core CI machine. The wait is for the import.
  }, 30_000);
});
