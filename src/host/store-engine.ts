/**
 * The store engine: the session engine on a database of its own, with the
 * clean-ups, rewind and erase hooks other capabilities register on that database
 * (artifacts go, and go back, with their session; memory entries and saved search
 * shards go with the events erased). What a worker exposes and
 * an in-thread store runs on; the capabilities beside sessions (search, memory,
 * artifacts, sync) reach the same database through it, as a `DatabaseOwner`.
 */
import { sessionArtifactsCleanup, sessionArtifactsRewind } from '../artifacts/hooks.js';
import type { StoreClosedError } from '../core/errors.js';
import type { StoreChange } from '../database/changes.js';
import { Database, type DatabaseOwner } from '../database/database.js';
import type { Db } from '../database/idb/index.js';
import type { UpgradeStep } from '../database/open.js';
import type { StoreSchema } from '../database/records/index.js';
import { sessionDraftsCleanup } from '../drafts/hooks.js';
import { sessionMemoryErase } from '../memory/hooks.js';
import { sessionSearchErase } from '../search/hooks.js';
import { SessionEngine } from '../sessions/engine.js';
import type { Durability } from '../types.js';

/** Where the store keeps its data, and how it writes: the options every in-thread store takes. */
export interface EngineOptions {
  /** Database name. Default `'adk-sessions'`. */
  dbName?: string;
  /** The IndexedDB to use. Default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory;
  /**
   * The `IDBKeyRange` class of `indexedDB`'s implementation, where it is not a
   * global (fake-indexeddb in Node without `fake-indexeddb/auto`). Optional: without
   * it range reads step a cursor instead, which is correct but slower.
   */
  IDBKeyRange?: typeof IDBKeyRange;
  /**
   * Durability of appends unless an append says otherwise. Default `'relaxed'`:
   * a committed append survives a tab, worker or browser crash; `'strict'` also
   * survives a power cut, at several times the latency per transaction.
   */
  durability?: Durability;
  /** How long a schema upgrade waits for other tabs before `UpgradeBlockedError`. Default 5000 ms. */
  blockedTimeoutMs?: number;
}

/** Options only tests pass: kept out of `EngineOptions`, which apps see. */
export interface EngineTestingOptions extends EngineOptions {
  /**
   * Tests only, never in an app: the schema's upgrade steps in place of the
   * shipped ones, so a test can play a newer release (the shipped steps plus
   * its own) against tabs running this one.
   */
  upgradesForTesting?: readonly UpgradeStep[];
}

export class StoreEngine extends SessionEngine implements DatabaseOwner {
  constructor(options: EngineTestingOptions = {}) {
    const database = new Database(options);
    database.onSessionsRemoved(sessionArtifactsCleanup);
    database.onSessionsRemoved(sessionDraftsCleanup);
    database.onSessionRewound(sessionArtifactsRewind);
    database.onSessionErased(sessionMemoryErase);
    database.onSessionErased(sessionSearchErase);
    super(database, options.durability);
  }

  get dbName(): string {
    return this.database.dbName;
  }

  /** True once closed, by `close()` or from outside (another tab's upgrade, the browser). */
  get closed(): boolean {
    return this.database.closed;
  }

  /** See `Database.onClose`. */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.database.onClose(listener);
  }

  /** See `Database.onCommitted`. */
  onCommitted(listener: (changes: readonly StoreChange[]) => void): () => void {
    return this.database.onCommitted(listener);
  }

  /**
   * Runs `work` on the open database, its failures typed as every engine call's:
   * how capabilities beside sessions reach the same database.
   */
  transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T> {
    return this.database.transact(work);
  }

  /** Tells subscribers about changes committed through `transact` (sync's writes), as the engine's own writes do. */
  announce(changes: readonly StoreChange[]): void {
    this.database.announce(changes);
  }
}
