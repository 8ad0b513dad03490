/**
 * `new IndexedDbSessionService(...)`: the one store (`Store`) running in this
 * thread over an engine made at once, for code that constructs its services
 * (ADK's `Runner`, Node scripts, a worker that serves it). Its engine stays
 * inside: only this package's own modules (`exposeSessionService`) and tests
 * reach it, through `engineOf` (host/engine-of.ts).
 */
import type { Endpoint } from 'comlink';
import type { ArtifactEngineOptions } from '../artifacts/engine.js';
import { engineOf, registerEngine } from '../host/engine-of.js';
import { exposeEngine } from '../host/expose.js';
import { type EngineOptions, type EngineTestingOptions, StoreEngine } from '../host/store-engine.js';
import { type SearchOptions, searchEngineFor } from '../search/engine.js';
import { checked } from '../sessions/checked.js';
import { LazyEngine } from './lazy-engine.js';
import { type SessionStore, Store } from './store.js';

/** What `new IndexedDbSessionService(...)` takes: the engine's, the artifacts' and the search's options. */
export interface IndexedDbSessionServiceOptions extends EngineOptions, ArtifactEngineOptions, SearchOptions {}

/**
 * The store `new IndexedDbSessionService(...)` makes: the one store type, running in this thread.
 * Declared as an interface (with the constructor below) so its type is the public `SessionStore`,
 * not the class that implements it.
 */
export interface IndexedDbSessionService extends SessionStore {
  /**
   * Marks a store made by `new IndexedDbSessionService`, the only kind `exposeSessionService`
   * can serve: a worker client has no engine in this thread to serve, and must not type-check as one.
   */
  readonly [inThreadService]: true;
}

/** The key of `IndexedDbSessionService`'s brand: a symbol type only (nothing at run time), which no other store has. */
declare const inThreadService: unique symbol;

/**
 * The session store running in this thread, over the given `IDBFactory`: real
 * IndexedDB in a page or worker, fake-indexeddb in Node (with its globals
 * installed: idb needs IndexedDB's classes as globals). Instances over the same
 * database behave as one store, in one tab or across tabs.
 *
 * @example
 * ```ts
 * const store = new IndexedDbSessionService({ dbName: 'my-app' });
 * const session = await store.createSession({ appName: 'chat', userId: 'u1' });
 * await store.appendEvent({ session, event: { id: 'e1', invocationId: 'i1', author: 'user', timestamp: Date.now(),
 *   actions: { stateDelta: { 'user:name': 'Ada' } } } });
 * session.state['user:name']; // 'Ada', and stored
 * ```
 */
export const IndexedDbSessionService: new (options?: IndexedDbSessionServiceOptions) => IndexedDbSessionService =
  class IndexedDbSessionService extends Store {
    // The brand is a type only: `exposeSessionService` checks the real thing (its engine) at run time.
    declare readonly [inThreadService]: true;

    constructor(options: IndexedDbSessionServiceOptions = {}) {
      // Made here, not on first use: a missing IndexedDB is told by the constructor, as before.
      const engine = new StoreEngine(options);
      // The first caller's options stay with the engine's search: say them before anything asks for it.
      searchEngineFor(engine, options.search === false ? { search: false } : {});
      super(new LazyEngine(options, { engine, sessions: checked(() => engine) }), 'in-thread', undefined);
      registerEngine(this, engine);
    }
  };

/** For tests only: a service whose engine takes options no app may pass (`upgradesForTesting`). */
export function serviceForTesting(
  options: IndexedDbSessionServiceOptions & EngineTestingOptions,
): IndexedDbSessionService {
  return new IndexedDbSessionService(options);
}

/**
 * Serves one store over a Comlink endpoint: the worker's global scope (the
 * default), a `MessagePort`, or a SharedWorker connection's port. Call it
 * synchronously at the worker's top level; the database opens on first use.
 */
export function exposeSessionService(
  service: IndexedDbSessionService,
  endpoint: Endpoint = globalThis as unknown as Endpoint,
): void {
  exposeEngine(engineOf(service), endpoint);
}
