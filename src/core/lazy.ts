/**
 * The one loader of code fetched on first use, on both sides of the boundary:
 * the worker host's parts and the in-thread store's engine and parts. A module
 * of its own, so the page carries it without the worker's warm-up.
 */

/**
 * The part `load` gives, loaded once and shared; a failed load (a chunk that did not arrive) is tried again
 * next call.
 */
export interface Lazy<T> {
  (): Promise<T>;
  /** The part if its load has started, without starting it. */
  started(): Promise<T> | undefined;
}

export function lazy<T>(load: () => Promise<T>): Lazy<T> {
  let loading: Promise<T> | undefined;
  const get = (): Promise<T> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return Object.assign(get, { started: () => loading });
}
