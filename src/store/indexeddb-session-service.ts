import { SessionFront } from '../front.js';
import type { StoreChange } from '../protocol.js';
import { type EngineOptions, StoreEngine } from './engine.js';

export type IndexedDbSessionServiceOptions = EngineOptions;

/**
 * The session store running in this thread, over any `IDBFactory`: real
 * IndexedDB in a page or worker, fake-indexeddb in Node. Instances over the same
 * database behave as one store, in one tab or across tabs.
 *
 * @example
 * const store = new IndexedDbSessionService({ dbName: 'my-app' });
 * const session = await store.createSession({ appName: 'chat', userId: 'u1' });
 * await store.appendEvent({ session, event: { id: 'e1', invocationId: 'i1', author: 'user', timestamp: Date.now(),
 *   actions: { stateDelta: { 'user:name': 'Ada' } } } });
 * session.state['user:name']; // 'Ada', and stored
 */
export class IndexedDbSessionService extends SessionFront {
  readonly engine: StoreEngine;

  constructor(options: IndexedDbSessionServiceOptions = {}) {
    const engine = new StoreEngine(options);
    super(engine);
    this.engine = engine;
  }

  /** Calls `listener` after each change this instance commits. Returns an unsubscribe function. */
  onChange(listener: (change: StoreChange) => void): () => void {
    return this.engine.onChange(listener);
  }
}
