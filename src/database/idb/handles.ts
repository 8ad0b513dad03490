/**
 * Typed promise handles over one database: `Db` -> `Tx` -> `Store` -> `Index`.
 * Every request is issued at once (so reads issued together pipeline) and its
 * promise settles in the success event's microtask, while the transaction is
 * still active. A write's own promise may be ignored: it is marked handled,
 * and its transaction's `done` carries its failure.
 */
import { type Bounds, Cursor, nativeQuery, type Query, type Realm } from './cursor.js';
import { completion, handled, settle } from './requests.js';

/** What a database holds: per object store its key, value and indexes (index name -> index key). */
export type Schema = Record<string, { key: IDBValidKey; value: unknown; indexes: Record<string, IDBValidKey> }>;

type Source = IDBObjectStore | IDBIndex;

/** Reads shared by object stores and indexes; `K` is the key the source is ordered by, `P` the primary key. */
class Reader<V, K extends IDBValidKey, P extends IDBValidKey> {
  constructor(
    protected readonly realm: Realm,
    protected readonly source: Source,
  ) {}

  get(key: K): Promise<V | undefined> {
    return settle(this.source.get(key)) as Promise<V | undefined>;
  }

  getKey(key: K): Promise<P | undefined> {
    return settle(this.source.getKey(key)) as Promise<P | undefined>;
  }

  getAll(query?: Query, count?: number): Promise<V[]> {
    const native = nativeQuery(this.realm, query);
    if (native !== undefined) return settle(this.source.getAll(native, count)) as Promise<V[]>;
    return this.collect(query, count, true, (c) => c.value);
  }

  /** The primary keys of the records in range (an index's own keys are not returned). */
  getAllKeys(query?: Query, count?: number): Promise<P[]> {
    const native = nativeQuery(this.realm, query);
    if (native !== undefined) return settle(this.source.getAllKeys(native, count)) as Promise<P[]>;
    return this.collect(query, count, false, (c) => c.primaryKey);
  }

  async count(query?: Query): Promise<number> {
    const native = nativeQuery(this.realm, query);
    if (native !== undefined) return settle(this.source.count(native ?? undefined));
    return (await this.collect(query, undefined, false, () => 0)).length;
  }

  /**
   * `getAllRecords` (IndexedDB 3.1, Chromium 141+): the values of a range read in
   * either direction in one request. `undefined` where the engine lacks it or the
   * range cannot be made native.
   */
  getAllRecords(query: Bounds, count: number, direction: IDBCursorDirection): Promise<V[]> | undefined {
    const reader = this.source as Partial<{
      getAllRecords(options: {
        query: IDBKeyRange;
        count: number;
        direction: IDBCursorDirection;
      }): IDBRequest<{ value: V }[]>;
    }>;
    const native = nativeQuery(this.realm, query);
    if (typeof reader.getAllRecords !== 'function' || !native) return undefined;
    return settle(reader.getAllRecords({ query: native as IDBKeyRange, count, direction })).then((records) =>
      records.map((r) => r.value),
    );
  }

  openCursor(query?: Query, direction: IDBCursorDirection = 'next'): Promise<Cursor<V, K, P> | null> {
    return Cursor.open<V, K, P>(this.realm, this.source, query, direction, true);
  }

  openKeyCursor(query?: Query, direction: IDBCursorDirection = 'next'): Promise<Cursor<V, K, P> | null> {
    return Cursor.open<V, K, P>(this.realm, this.source, query, direction, false);
  }

  private async collect<T>(
    query: Query | undefined,
    count: number | undefined,
    withValues: boolean,
    pick: (cursor: Cursor<V, K, P>) => T,
  ): Promise<T[]> {
    const found: T[] = [];
    const limit = count || Number.POSITIVE_INFINITY;
    let cursor = await Cursor.open<V, K, P>(this.realm, this.source, query, 'next', withValues);
    while (cursor && found.length < limit) {
      found.push(pick(cursor));
      cursor = await cursor.continue();
    }
    return found;
  }
}

export class Index<V, K extends IDBValidKey, P extends IDBValidKey> extends Reader<V, K, P> {}

export class Store<S extends Schema[string]> extends Reader<S['value'], S['key'], S['key']> {
  private get store(): IDBObjectStore {
    return this.source as IDBObjectStore;
  }

  put(value: S['value']): Promise<S['key']> {
    return handled(settle(this.store.put(value)) as Promise<S['key']>);
  }

  add(value: S['value']): Promise<S['key']> {
    return handled(settle(this.store.add(value)) as Promise<S['key']>);
  }

  delete(query: S['key'] | Bounds): Promise<void> {
    return handled(this.remove(query));
  }

  private async remove(query: S['key'] | Bounds): Promise<void> {
    const native = nativeQuery(this.realm, query);
    if (native !== undefined && native !== null) {
      await settle(this.store.delete(native));
      return;
    }
    // A key cursor cannot delete: this one carries values only because it must.
    let cursor = await this.openCursor(query);
    while (cursor) {
      cursor.delete();
      cursor = await cursor.continue();
    }
  }

  index<I extends keyof S['indexes'] & string>(name: I): Index<S['value'], S['indexes'][I], S['key']> {
    return new Index(this.realm, this.store.index(name));
  }
}

export class Tx<D extends Schema, N extends keyof D & string> {
  /** Settles when the transaction commits; rejects with its error if it aborts. */
  readonly done: Promise<void>;

  constructor(
    private readonly realm: Realm,
    readonly native: IDBTransaction,
  ) {
    this.done = completion(native);
  }

  /** Why the transaction aborted, once it has. */
  get error(): DOMException | null {
    return this.native.error;
  }

  objectStore<M extends N>(name: M): Store<D[M]> {
    return new Store<D[M]>(this.realm, this.native.objectStore(name));
  }

  abort(): void {
    this.native.abort();
  }

  /** Aborts the transaction (unless IndexedDB already has) and waits for its end: nothing of it commits. */
  async abandon(): Promise<void> {
    try {
      this.native.abort();
    } catch {
      // Already aborted, by IndexedDB itself.
    }
    await this.done.catch(() => {});
  }
}

export class Db<D extends Schema> {
  /** Set when a write transaction of this connection aborted for want of space (see `transaction`). */
  private quotaAborted = false;

  constructor(
    private readonly realm: Realm,
    readonly native: IDBDatabase,
  ) {}

  /**
   * Firefox makes the first read-write transaction a connection opens after one aborted with
   * QuotaExceededError a "cleanup" transaction: it may delete, but every put and add throws
   * InvalidStateError ("a database that did not allow mutations"), which would read as a closed
   * database. An empty transaction takes that turn here, so the caller's writes run in a normal
   * one: refused with QuotaExceededError while the disk is full, stored once there is room.
   * Other engines just commit the empty transaction.
   */
  transaction<N extends keyof D & string>(
    names: N | N[],
    mode: IDBTransactionMode = 'readonly',
    options?: IDBTransactionOptions,
  ): Tx<D, N> {
    if (mode === 'readonly') return new Tx<D, N>(this.realm, this.native.transaction(names, mode, options));
    if (this.quotaAborted) {
      this.quotaAborted = false;
      completion(this.native.transaction(names, mode, options));
    }
    const tx = new Tx<D, N>(this.realm, this.native.transaction(names, mode, options));
    tx.done.catch((error: unknown) => {
      if ((error as { name?: unknown } | null)?.name === 'QuotaExceededError') this.quotaAborted = true;
    });
    return tx;
  }

  get<N extends keyof D & string>(name: N, key: D[N]['key']): Promise<D[N]['value'] | undefined> {
    return this.transaction(name).objectStore(name).get(key);
  }

  getAll<N extends keyof D & string>(name: N): Promise<D[N]['value'][]> {
    return this.transaction(name).objectStore(name).getAll();
  }

  close(): void {
    this.native.close();
  }
}
