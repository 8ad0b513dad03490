/** What a live query needs of a store, and what it hands to its listeners. */

import type { StoreClosedError } from '../core/errors.js';
import type { ChangeFilter, ChangeListener } from '../database/changes.js';
import type { SessionService } from '../types.js';

/** Any store: the in-thread service, a worker client, or what `openSessionStore` returns. */
export interface LiveStore
  extends Pick<SessionService, 'getSession' | 'listSessions' | 'getUserState' | 'getAppState'> {
  /** Hears committed changes (the store's `subscribe`): what tells a query to read again. */
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void;
  /**
   * Where a store has it, a query learns of closure at once; without it, from
   * the `StoreClosedError` its next read gets.
   */
  onClose?(listener: (error: StoreClosedError) => void): () => void;
}

/**
 * A query's state. `value` is kept through an error (the last good value), and
 * a new snapshot object exists only when something a reader sees has changed:
 * identity comparison is enough to know whether to render. Snapshots and
 * values are deeply frozen: a value is shared by every reader of the query.
 * `'closed'` is final: the store was closed (or its worker died, or another tab
 * deleted the database); `value` is the last one read.
 */
export type LiveSnapshot<T> =
  | { readonly status: 'loading'; readonly value: undefined; readonly error: undefined }
  | { readonly status: 'ready'; readonly value: T; readonly error: undefined }
  | { readonly status: 'error'; readonly value: T | undefined; readonly error: unknown }
  | { readonly status: 'closed'; readonly value: T | undefined; readonly error: StoreClosedError };

/** What `subscribe` returns: call it, or (RxJS, Svelte) call its `unsubscribe`. */
export interface LiveUnsubscribe {
  /** Stops the subscription. */
  (): void;
  /** The same, as a method (RxJS's and Svelte's shape). */
  unsubscribe(): void;
}

/** An observer of the TC39 Observable proposal (what RxJS's `from` passes in). */
export interface LiveObserver<T> {
  /** Called with each value. */
  next?(value: T): void;
  /** Called once if the source fails; nothing follows. */
  error?(error: unknown): void;
  /** Called once when the source ends (a live query: when its store closes); nothing follows. */
  complete?(): void;
}

/** The interop Observable a live query gives through `Symbol.observable`: snapshots, completing once closed. */
export interface LiveObservable<T> {
  /** Delivers the current snapshot at once, then each new one; completes after the `'closed'` one. */
  subscribe(observer: LiveObserver<LiveSnapshot<T>> | ((snapshot: LiveSnapshot<T>) => void)): {
    unsubscribe(): void;
  };
  /** Itself: the interop protocol's self-reference. */
  [Symbol.observable](): LiveObservable<T>;
}

declare global {
  interface SymbolConstructor {
    /** The interop symbol of the TC39 Observable proposal, as RxJS declares it (it may not exist at run time). */
    readonly observable: symbol;
  }
}

/**
 * A value kept current. It is at once a store for React's
 * `useSyncExternalStore` (`subscribe` + `getSnapshot`), a Svelte store
 * (`subscribe` calls back at once with the current snapshot: `$query` in a
 * component), and an interop Observable (`Symbol.observable`, for RxJS's
 * `from`, Vue's `@vueuse/rxjs`, Angular's `toSignal`, Solid's `from`).
 */
export interface LiveQuery<T> {
  /** The current snapshot: same object until it changes (what `useSyncExternalStore` needs). */
  getSnapshot(): LiveSnapshot<T>;
  /**
   * Calls `listener` with the current snapshot at once, then with each new
   * one (the Svelte store contract). The first subscriber starts the query (a
   * read, then the change feed); the last one to leave releases it.
   */
  subscribe(listener: (snapshot: LiveSnapshot<T>) => void): LiveUnsubscribe;
  /**
   * Framework-free use: `onValue` hears the current value, then each change;
   * `onError` each failed read, and the `StoreClosedError` that ends the query.
   */
  watch(onValue: (value: T) => void, onError?: (error: unknown) => void): () => void;
  /** The query as an interop Observable of its snapshots (RxJS's `from(query)`). */
  [Symbol.observable](): LiveObservable<T>;
}

/** How a live query reads again after changes. */
export interface LiveOptions {
  /**
   * How long a change waits for others before the re-read that covers them all,
   * in ms (default 16, about a frame). Changes arriving while a read is in
   * flight are folded into the next read whatever this is.
   */
  coalesceMs?: number;
}
