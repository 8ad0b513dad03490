/**
 * One store type: every way of getting a store gives a `SessionStore`, with
 * its lifecycle (`ready`, `closed`, `onClose`) — the in-thread store once
 * lacked them (TS2551 on `openSessionStore().onClose`) — and what a user never
 * makes or should never reach stays out of the public types.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  IndexedDbSessionService,
  IndexedDbSessionServiceOptions,
  SessionStore,
  SessionStoreClient,
  StoreClosedError,
  StoreKind,
  SyncStartOptions,
} from '../../src/index.js';
import * as Public from '../../src/index.js';

describe('every way of getting a store', () => {
  it('gives the one SessionStore type', () => {
    expectTypeOf(Public.openSessionStore).returns.toEqualTypeOf<SessionStore>();
    expectTypeOf(Public.connectSessionStore).returns.toEqualTypeOf<SessionStore>();
    expectTypeOf<IndexedDbSessionService>().toExtend<SessionStore>();
    expectTypeOf<SessionStoreClient>().toEqualTypeOf<SessionStore>();
  });

  it('has the lifecycle on openSessionStore() itself', () => {
    const store = Public.openSessionStore({ mode: 'in-thread' });
    expectTypeOf(store.ready).toEqualTypeOf<Promise<void>>();
    expectTypeOf(store.closed).toEqualTypeOf<boolean>();
    expectTypeOf(store.onClose).parameter(0).toEqualTypeOf<(error: StoreClosedError) => void>();
    expectTypeOf(store.onClose).returns.toEqualTypeOf<() => void>();
    expectTypeOf(store.mode).toEqualTypeOf<StoreKind>();
  });

  it('takes a conflict callback and a fetch in sync options (refused through a worker at run time)', () => {
    expectTypeOf<{
      url: string;
      token: string;
      appName: string;
      userId: string;
      conflict: () => 'drop';
      fetch: typeof fetch;
    }>().toExtend<SyncStartOptions>();
  });
});

describe('what stays out of the public surface', () => {
  it('exports no engine, sync engine or front as a value', () => {
    // @ts-expect-error the engine is not exported
    void Public.StoreEngine;
    // @ts-expect-error nor is the sync engine: `store.sync(...)` starts one
    void Public.SyncEngine;
    // @ts-expect-error a type only: nobody constructs the artifact front
    void Public.ArtifactFront;
    // @ts-expect-error a type only
    void Public.MemoryFront;
    // @ts-expect-error a type only: `connectSessionStore` makes clients
    void Public.SessionStoreClient;
    // @ts-expect-error a type only: `store.sync` makes handles
    void Public.SyncHandle;
  });

  it('keeps the engine off IndexedDbSessionService and test-only options out of its type', () => {
    expectTypeOf<IndexedDbSessionService>().not.toHaveProperty('engine');
    expectTypeOf<IndexedDbSessionServiceOptions>().not.toHaveProperty('upgradesForTesting');
    // @ts-expect-error tests only: reachable through src/client/indexeddb-session-service.ts's serviceForTesting
    new Public.IndexedDbSessionService({ upgradesForTesting: [] });
  });

  it('lets exposeSessionService take only a store made by new IndexedDbSessionService', () => {
    const serve = (store: SessionStore) =>
      // @ts-expect-error a client (or any other SessionStore) has no engine in this thread to serve
      Public.exposeSessionService(store);
    expectTypeOf(serve).toBeFunction();
    expectTypeOf(Public.exposeSessionService).parameter(0).toEqualTypeOf<IndexedDbSessionService>();
  });
});
