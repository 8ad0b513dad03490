/** What a live query needs of a store, and what it hands to its listeners. */
import type { ChangeFilter, ChangeListener } from '../changes.js';
import type { SessionService } from '../types.js';

/** Any store: the in-thread service, a worker client, or what `openSessionStore` returns. */
export interface LiveStore
  extends Pick<SessionService, 'getSession' | 'listSessions' | 'getUserState' | 'getAppState'> {
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void;
}

/**
 * A query's state. `value` is kept through an error (the last good value), and
 * a new snapshot object exists only when something a reader sees has changed:
 * identity comparison is enough to know whether to render.
 */
export type LiveSnapshot<T> =
  | { status: 'loading'; value: undefined; error: undefined }
  | { status: 'ready'; value: T; error: undefined }
  | { status: 'error'; value: T | undefined; error: unknown };

export interface LiveQuery<T> {
  /** The current snapshot: same object until it changes (what `useSyncExternalStore` needs). */
  getSnapshot(): LiveSnapshot<T>;
  /**
   * `listener` is called after each new snapshot. The first subscriber starts the
   * query (a read, then the change feed); the last one to leave releases it.
   */
  subscribe(listener: () => void): () => void;
  /** Framework-free use: `onValue` hears the current value, then each change; `onError` each failed read. */
  watch(onValue: (value: T) => void, onError?: (error: unknown) => void): () => void;
}

export interface LiveOptions {
  /**
   * How long a change waits for others before the re-read that covers them all,
   * in ms (default 16, about a frame). Changes arriving while a read is in
   * flight are folded into the next read whatever this is.
   */
  coalesceMs?: number;
}
