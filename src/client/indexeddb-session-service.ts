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
import { checkedBackend } from '../sessions/checked.js';
import { LazyEngine } from './lazy-engine.js';
import { Store } from './store.js';

export type IndexedDbSessionServiceOptions = EngineOptions & ArtifactEngineOptions & SearchOptions;

/**
 * The session store running in this thread, over the given `IDBFactory`: real
 * IndexedDB in a page or worker, fake-indexeddb in Node (with its globals
 * installed: idb needs IndexedDB's classes as globals). Instances over the same
 * database behave as one store, in one tab or across tabs.
 *
 * @example
 * const store = new IndexedDbSessionService({ dbName: 'my-app' });
 * const session = await store.createSession({ appName: 'chat', userId: 'u1' });
 * await store.appendEvent({ session, event: { id: 'e1', invocationId: 'i1', author: 'user', timestamp: Date.now(),
 *   actions: { stateDelta: { 'user:name': 'Ada' } } } });
 * session.state['user:name']; // 'Ada', and stored
 */
export class IndexedDbSessionService extends Store {
  constructor(options: IndexedDbSessionServiceOptions = {}) {
    // Made here, not on first use: a missing IndexedDB is told by the constructor, as before.
    const engine = new StoreEngine(options);
    // The first caller's options stay with the engine's search: say them before anything asks for it.
    searchEngineFor(engine, options.search === false ? { search: false } : {});
    super(new LazyEngine(options, { engine, sessions: checkedBackend(() => engine) }), 'in-thread', undefined);
    registerEngine(this, engine);
  }
}

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
