/** Raw IndexedDB as promises, for the bench's hand-coded contenders and baselines (not the store's own layer). */

/** Settles with `r`'s result, or rejects with its error. */
export function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Settles when `tx` commits; rejects with the failing request's error, or the abort's. */
export function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = (event) => reject((event.target as IDBRequest).error ?? tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}
