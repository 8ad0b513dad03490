import type { ArtifactEngineOptions } from '../artifacts/engine.js';
import { ArtifactFront } from '../artifacts/front.js';
import { inThreadArtifacts } from '../artifacts/in-thread.js';
import { ChangeFeed, type ChangeFilter, type ChangeListener } from '../changes.js';
import { SyncHandle, type SyncStartOptions } from '../client/sync-handle.js';
import type { StoreClosedError } from '../errors.js';
import { SessionFront } from '../front.js';
import { checkedBackend } from '../host/checked.js';
import { MemoryFront } from '../memory/front.js';
import { memoryMethods } from '../memory/host.js';
import { type SearchOptions, searchEngineFor } from '../search/engine.js';
import { searchMethods } from '../search/host.js';
import type { SyncBackend } from '../sync/protocol.js';
import { type EngineOptions, StoreEngine } from './engine.js';

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
export class IndexedDbSessionService extends SessionFront {
  readonly engine: StoreEngine;
  /** Artifacts (ADK's `BaseArtifactService`, and Blobs) on the same database. */
  readonly artifacts: ArtifactFront;
  /** Memory (ADK's memory service): what was added to it, searched like `searchEvents`. */
  readonly memory: MemoryFront;
  private readonly feed: ChangeFeed;
  private syncBackend: SyncBackend | undefined;

  constructor(options: IndexedDbSessionServiceOptions = {}) {
    const engine = new StoreEngine(options);
    // The first caller's options stay with the engine's search: say them before anything asks for it.
    searchEngineFor(engine, options.search === false ? { search: false } : {});
    super(
      checkedBackend(() => engine),
      undefined,
      searchMethods(() => engine),
    );
    this.engine = engine;
    const bytes = options.artifactBytes;
    this.artifacts = new ArtifactFront(inThreadArtifacts(engine, bytes ? { artifactBytes: bytes } : {}));
    this.memory = new MemoryFront(memoryMethods(() => engine));
    this.feed = new ChangeFeed(engine.dbName);
  }

  /**
   * Calls `listener` after each committed change matching `filter`, made by this
   * instance or any other over the same database (other tabs included).
   * Returns the unsubscribe function.
   */
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void {
    return this.feed.subscribe(filter, listener);
  }

  /**
   * Calls `listener` once when the store closes for good: `close()`, or another
   * tab upgrading or deleting the database (then reload to continue).
   */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.engine.onClose(listener);
  }

  /**
   * Syncs one user's sessions with a sync server; see README "Sync". For a
   * conflict callback or your own `fetch`, run `new SyncEngine(store.engine, options)`.
   */
  async sync(options: SyncStartOptions): Promise<SyncHandle> {
    if (!this.syncBackend) {
      const { syncMethods } = await import('../sync/host.js');
      this.syncBackend = syncMethods(() => this.engine);
    }
    return SyncHandle.start(this.syncBackend, options);
  }

  override async close(): Promise<void> {
    await this.syncBackend?.stopSync();
    await super.close();
    this.feed.close();
  }
}
