/**
 * IndexedDB's requests and transactions as promises, recognised by what they
 * do rather than by `instanceof` against global classes: a factory from any
 * realm works (fake-indexeddb in Node with no globals installed, an iframe's).
 */

/**
 * Settles with the request's next outcome. A cursor request fires again after
 * every `continue()`, so this is called once per step. Resolution runs in a
 * microtask of the success event, while the transaction is still active.
 */
export function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** `request`, marked handled: a read that may never be awaited (its transaction fails first) raises no unhandled rejection. */
export function handled<T>(request: Promise<T>): Promise<T> {
  request.catch(() => {});
  return request;
}

/**
 * Settles when the transaction commits; rejects with its error when it aborts
 * (an `AbortError` for an explicit `abort()`). Created with the transaction, so
 * an outcome is never missed; marked handled, so a transaction whose outcome
 * nobody awaits (an aborted read) raises no unhandled rejection.
 */
export function completion(tx: IDBTransaction): Promise<void> {
  // Only `abort` fails it: a request's `error` may be handled (its default prevented), and
  // when it is not, `abort` follows with `tx.error` set to the cause.
  const done = new Promise<void>((resolve, reject) => {
    tx.addEventListener('complete', () => resolve(), { once: true });
    tx.addEventListener(
      'abort',
      () => reject(tx.error ?? new DOMException('the transaction was aborted', 'AbortError')),
      { once: true },
    );
  });
  done.catch(() => {});
  return done;
}
