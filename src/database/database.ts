/**
 * The database owner: one IndexedDB connection (opened on first use, reopened
 * after a failed open), the transactions every capability runs on it with their
 * failures typed, the change notices of what committed, and the hooks by which
 * a capability joins another's writes. It calls no capability by name: a
 * capability that must react to sessions going registers a `SessionCleanup`, one that must go
 * back with a rewound session a `SessionRewind`, one that keeps data derived from events a
 * `SessionErase`.
 */
import { CloseSignal } from '../core/close-signal.js';
import { AlreadyExistsError, normalizeStorageError, StoreClosedError } from '../core/errors.js';
import { ChangePublisher, type StoreChange } from './changes.js';
import { DEFAULT_DB_NAME } from './defaults.js';
import type { Db, Tx } from './idb/index.js';
import { openDatabase, type UpgradeStep } from './open.js';
import type { StoreName, StoreSchema } from './records/index.js';

export interface DatabaseOptions {
  /** Database name. Default `'adk-sessions'`. */
  dbName?: string;
  /** The IndexedDB to use. Default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory;
  /** The `IDBKeyRange` class of `indexedDB`'s implementation, where it is not a global. */
  IDBKeyRange?: typeof IDBKeyRange;
  /** How long a schema upgrade waits for other tabs before `UpgradeBlockedError`. Default 5000 ms. */
  blockedTimeoutMs?: number;
  /** Tests only: the schema's upgrade steps in place of the shipped ones. */
  upgradesForTesting?: readonly UpgradeStep[];
}

/** Sessions that went (deleted, or replaced by an import), as the clean-up hooks hear of them. */
export type RemovedSessions = readonly { appName: string; userId: string; id: string }[];

/**
 * What a capability does inside the transaction that removes sessions: its
 * `stores` join that transaction, and `removed` issues its writes there (at
 * once, before awaiting anything else, or the transaction commits without them).
 */
export interface SessionCleanup {
  readonly stores: readonly StoreName[];
  removed(tx: Tx<StoreSchema, StoreName>, sessions: RemovedSessions): Promise<void>;
}

/** Artifact versions by filename, as events name them (`actions.artifactDelta`, folded in order). */
export type NamedVersions = Record<string, number>;

/**
 * Writes, inside the transaction that rewinds a session, what brings a capability's data back to
 * the rewind point: `atPoint` is what the events before the point name, `latest` what all of them name.
 * Resolves the versions it wrote (the rewind event's `artifactDelta`). Must await nothing but
 * requests of `tx`, or the transaction commits without the rest.
 */
export type RewindWriter = (
  tx: Tx<StoreSchema, StoreName>,
  session: { appName: string; userId: string; id: string },
  atPoint: NamedVersions,
  latest: NamedVersions,
) => Promise<NamedVersions>;

/** What a capability does when a session is rewound: its `stores` join the rewind's transaction. */
export interface SessionRewind {
  readonly stores: readonly StoreName[];
  /** Its writer's code, loaded before the transaction opens (an `import()` awaited inside one would let it end). */
  load(): Promise<RewindWriter>;
}

/**
 * Removes, inside the transaction that erases events of a session, what a capability derived from
 * them (memory entries, saved search shards). `uid` is the session's incarnation. Must await
 * nothing but requests of `tx`, or the transaction commits without the rest.
 */
export type EraseWriter = (
  tx: Tx<StoreSchema, StoreName>,
  session: { appName: string; userId: string; id: string; uid: string },
  eventIds: readonly string[],
) => Promise<void>;

/** What a capability does when events of a session are erased: its `stores` join the erase's transaction. */
export interface SessionErase {
  readonly stores: readonly StoreName[];
  /** Its writer's code, loaded before the transaction opens. */
  load(): Promise<EraseWriter>;
}

/** What a capability built on the database needs of its owner; `Database` is one, and so is `StoreEngine`. */
export interface DatabaseOwner {
  readonly dbName: string;
  readonly closed: boolean;
  transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T>;
  announce(changes: readonly StoreChange[]): void;
  onCommitted(listener: (changes: readonly StoreChange[]) => void): () => void;
  onClose(listener: (error: StoreClosedError) => void): () => void;
}

export class Database implements DatabaseOwner {
  readonly dbName: string;
  private readonly factory: IDBFactory;
  private readonly keyRange: typeof IDBKeyRange | undefined;
  private readonly blockedTimeoutMs: number;
  private readonly upgrades: readonly UpgradeStep[] | undefined;
  private connection: Promise<Db<StoreSchema>> | undefined;
  private readonly closeSignal = new CloseSignal();
  private readonly publisher: ChangePublisher;
  private readonly commitListeners = new Set<(changes: readonly StoreChange[]) => void>();
  private readonly cleanups: SessionCleanup[] = [];
  private readonly rewinds: SessionRewind[] = [];
  private readonly erasers: SessionErase[] = [];

  constructor(options: DatabaseOptions = {}) {
    this.dbName = options.dbName ?? DEFAULT_DB_NAME;
    const factory = options.indexedDB ?? globalThis.indexedDB;
    if (!factory) throw new StoreClosedError('no IndexedDB in this environment: pass `indexedDB`');
    this.factory = factory;
    this.keyRange = options.IDBKeyRange;
    this.blockedTimeoutMs = options.blockedTimeoutMs ?? 5000;
    this.upgrades = options.upgradesForTesting;
    this.publisher = new ChangePublisher(this.dbName);
  }

  /**
   * Calls `listener` once when the database closes for good: by `close()`, or
   * from outside (another tab upgrading or deleting the database, the browser).
   * Called at once if it is already closed. Returns the unsubscribe function.
   */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.closeSignal.on(listener);
  }

  /** True once closed, by `close()` or from outside (another tab's upgrade, the browser). */
  get closed(): boolean {
    return this.closeSignal.error !== undefined;
  }

  /** Why it closed, once it has: what every later call rejects with. */
  get closedError(): StoreClosedError | undefined {
    return this.closeSignal.error;
  }

  /**
   * Hears committed changes at once, in this realm, before the writers'
   * promises settle: what keeps derived data (the search index) current for a
   * read that follows a write, without waiting for the broadcast. Must not do
   * work on the spot (it runs on the commit path): note and schedule only.
   */
  onCommitted(listener: (changes: readonly StoreChange[]) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Tells every subscriber, in this tab and others, about the changes of one committed transaction. */
  announce(changes: readonly StoreChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.commitListeners) {
      try {
        listener(changes);
      } catch (error) {
        // A derived view's failure must not fail the write that committed.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.publisher.publish(changes);
  }

  /** Registers what a capability does when sessions go; the transaction that removes them runs it. */
  onSessionsRemoved(cleanup: SessionCleanup): void {
    this.cleanups.push(cleanup);
  }

  /** The registered clean-ups, in registration order. */
  get sessionCleanups(): readonly SessionCleanup[] {
    return this.cleanups;
  }

  /** Registers what a capability brings back when a session is rewound; the rewind's transaction runs it. */
  onSessionRewound(rewind: SessionRewind): void {
    this.rewinds.push(rewind);
  }

  /** The registered rewind hooks, in registration order. */
  get sessionRewinds(): readonly SessionRewind[] {
    return this.rewinds;
  }

  /** Registers what a capability removes when events of a session are erased; the erase's transaction runs it. */
  onSessionErased(erase: SessionErase): void {
    this.erasers.push(erase);
  }

  /** The registered erase hooks, in registration order. */
  get sessionErasers(): readonly SessionErase[] {
    return this.erasers;
  }

  /** Runs `work` on the open database and turns whatever IndexedDB threw into the typed family. */
  async transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T> {
    const db = await this.db();
    try {
      return await work(db);
    } catch (error) {
      throw this.closeSignal.error && !(error instanceof AlreadyExistsError)
        ? this.closeSignal.error
        : normalizeStorageError(error);
    }
  }

  private db(): Promise<Db<StoreSchema>> {
    if (this.closeSignal.error) return Promise.reject(this.closeSignal.error);
    if (!this.connection) {
      const opening = openDatabase({
        indexedDB: this.factory,
        ...(this.keyRange ? { IDBKeyRange: this.keyRange } : {}),
        name: this.dbName,
        blockedTimeoutMs: this.blockedTimeoutMs,
        onExternalClose: (error) => this.closeSignal.fire(error),
        ...(this.upgrades ? { upgrades: this.upgrades } : {}),
      });
      this.connection = opening;
      // A failed open (blocked, refused) is retried by the next call.
      opening.catch(() => {
        if (this.connection === opening) this.connection = undefined;
      });
    }
    return this.connection;
  }

  /** Closes the connection; later calls reject with `StoreClosedError`. Writers drain theirs first. */
  async close(): Promise<void> {
    this.closeSignal.fire(new StoreClosedError(`the store for database "${this.dbName}" is closed`));
    const connection = this.connection;
    this.connection = undefined;
    if (connection) (await connection.catch(() => undefined))?.close();
    this.publisher.close();
  }
}
