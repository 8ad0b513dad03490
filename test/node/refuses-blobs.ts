/**
 * A fake-indexeddb factory that refuses Blobs the way WebKit does in an
 * ephemeral session (Safari's Private Browsing; WebKitGTK under automation,
 * seen in WebKitGTK 2.50): `put`/`add` of a value holding a Blob returns a
 * request that fails with `UnknownError` "Error preparing Blob/File data to be
 * stored in object store", and the transaction then aborts whole, with that
 * error. Only this factory's connections are affected, nothing global.
 */
import { IDBFactory } from 'fake-indexeddb';

export interface RefusingFactory {
  indexedDB: IDBFactory;
  /** Whether Blobs are refused now (default true): false plays an engine that took them until now. */
  refusing: boolean;
  /** How many writes of a Blob were refused so far. */
  refused(): number;
  /**
   * How many of those were refused while another write of their transaction
   * was still pending. WebKit never finishes such a transaction (it neither
   * commits nor aborts, and its stores stay locked), so a store must never get
   * there (seen in WebKitGTK 2.50).
   */
  refusedBehindPendingWrites(): number;
}

const MESSAGE = 'Error preparing Blob/File data to be stored in object store';

function holdsBlob(value: unknown, depth = 0): boolean {
  if (value instanceof Blob) return true;
  if (value === null || typeof value !== 'object' || depth > 8) return false;
  return Object.values(value).some((v) => holdsBlob(v, depth + 1));
}

/** fake-indexeddb's request queue (not public API): a request whose operation throws fails as IndexedDB's own do. */
interface QueueingTransaction {
  _execRequestAsync(request: { source: IDBObjectStore; operation: () => never }): IDBRequest;
}

export function refusingBlobs(factory: IDBFactory = new IDBFactory()): RefusingFactory {
  let refused = 0;
  let refusedBehindPendingWrites = 0;
  const patched = new WeakSet<object>();
  const pending = new WeakMap<IDBTransaction, number>();
  const pendingIn = (tx: IDBTransaction): number => pending.get(tx) ?? 0;
  const track = (tx: IDBTransaction, request: IDBRequest): IDBRequest => {
    pending.set(tx, pendingIn(tx) + 1);
    const settled = () => pending.set(tx, pendingIn(tx) - 1);
    request.addEventListener('success', settled);
    request.addEventListener('error', settled);
    return request;
  };

  const patchStore = (store: IDBObjectStore): IDBObjectStore => {
    if (patched.has(store)) return store;
    patched.add(store);
    const remove = store.delete.bind(store);
    store.delete = (query) => track(store.transaction, remove(query));
    for (const method of ['put', 'add'] as const) {
      const original = store[method].bind(store);
      store[method] = (value: unknown, key?: IDBValidKey) => {
        if (!result.refusing || !holdsBlob(value)) return track(store.transaction, original(value, key));
        refused++;
        if (pendingIn(store.transaction) > 0) refusedBehindPendingWrites++;
        return (store.transaction as unknown as QueueingTransaction)._execRequestAsync({
          source: store,
          operation: () => {
            throw new DOMException(MESSAGE, 'UnknownError');
          },
        });
      };
    }
    return store;
  };

  const patchDb = (db: IDBDatabase): void => {
    const transaction = db.transaction.bind(db);
    db.transaction = (...args: Parameters<IDBDatabase['transaction']>) => {
      const tx = transaction(...args);
      const objectStore = tx.objectStore.bind(tx);
      tx.objectStore = (name: string) => patchStore(objectStore(name));
      return tx;
    };
  };

  const open = factory.open.bind(factory);
  factory.open = (name: string, version?: number) => {
    const request = open(name, version);
    // Registered before the caller's handlers, so the connection is patched before anyone uses it.
    request.addEventListener('success', () => patchDb(request.result));
    return request;
  };
  const result: RefusingFactory = {
    indexedDB: factory,
    refusing: true,
    refused: () => refused,
    refusedBehindPendingWrites: () => refusedBehindPendingWrites,
  };
  return result;
}
