/**
 * The once-only "closed for good" signal of a store backend (`closed`,
 * `onClose`), one copy for the engine, the worker client and the in-thread store. The
 * first reason wins; a listener added after it is called at once, so code
 * that subscribes late never waits forever.
 */
import type { StoreClosedError } from './errors.js';

export class CloseSignal {
  /** Why the store closed; `undefined` while it is open. */
  error: StoreClosedError | undefined;
  private readonly listeners = new Set<(error: StoreClosedError) => void>();

  /** Calls `listener` once when closed (at once if it is already). Returns the unsubscribe function. */
  on(listener: (error: StoreClosedError) => void): () => void {
    if (this.error) {
      listener(this.error);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes with `error` and tells the listeners; false (and nothing told) if it was closed already. */
  fire(error: StoreClosedError): boolean {
    if (this.error) return false;
    this.error = error;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener(error);
    return true;
  }
}
