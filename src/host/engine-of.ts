/**
 * Which engine a store in this thread runs on. `new IndexedDbSessionService`
 * keeps its engine out of its public members (an app must not reach
 * `transact` and the raw database); the worker host that serves such a store
 * (`exposeSessionService`), and tests, find it here. A registry, not an import
 * of the service: the host stays below the page-side store in the layers.
 */
import type { StoreEngine } from './store-engine.js';

const engines = new WeakMap<object, StoreEngine>();

export function registerEngine(owner: object, engine: StoreEngine): void {
  engines.set(owner, engine);
}

/** The engine under `owner`; a `TypeError` for anything not registered (not an `IndexedDbSessionService`). */
export function engineOf(owner: object): StoreEngine {
  const engine = engines.get(owner);
  if (!engine) throw new TypeError('not an IndexedDbSessionService: pass one made by `new IndexedDbSessionService`');
  return engine;
}
