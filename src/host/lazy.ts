/**
 * A part of the worker loaded on its first use: a worker that is never asked
 * to search, remember or sync never fetches or parses that code. Where the
 * app's bundler splits worker chunks each part is a chunk of its own.
 */

/** The part `load` gives, loaded once and shared; a failed load (a chunk that did not arrive) is tried again next call. */
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
