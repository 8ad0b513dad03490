/**
 * Preact hooks over the store: live queries, and reads redone after each change the store reports.
 * Each starts its read in a layout effect, as the render commits, not after the next paint: opening
 * a session is a chain of reads (apps, then the app's sessions, then the session), and waiting for a
 * frame at each link (up to 100 ms where frames are throttled) was most of the time to open one.
 */
import { useLayoutEffect, useState } from 'preact/hooks';
import type { ChangeFilter, LiveQuery, LiveSnapshot, SessionStore } from '../../index.js';

/**
 * A live query's snapshot, kept current while the component is mounted; `undefined` while `make`
 * gives no query. A new `key` makes a new query. `initial`: the first render's snapshot, when the
 * query `make` gives first is already running.
 */
export function useLive<T>(
  make: () => LiveQuery<T> | undefined,
  key: string,
  initial?: LiveSnapshot<T>,
): LiveSnapshot<T> | undefined {
  const [snapshot, setSnapshot] = useState<LiveSnapshot<T> | undefined>(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what the query depends on.
  useLayoutEffect(() => {
    const query = make();
    setSnapshot(query?.getSnapshot());
    return query?.subscribe(setSnapshot);
  }, [key]);
  return snapshot;
}

/** What a read resolved to; `error` when it failed. */
export interface Read<T> {
  value: T | undefined;
  error: unknown;
}

/**
 * `read()` now, and again after each committed change matching `filter`
 * (several changes in a frame make one read). `filter` undefined: no reading.
 * A new `key` starts over.
 */
export function useRead<T>(
  store: SessionStore,
  filter: ChangeFilter | undefined,
  read: () => Promise<T>,
  key: string,
): Read<T> {
  const [result, setResult] = useState<Read<T>>({ value: undefined, error: undefined });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names what the read depends on.
  useLayoutEffect(() => {
    if (!filter) {
      setResult({ value: undefined, error: undefined });
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      timer = undefined;
      read().then(
        (value) => live && setResult({ value, error: undefined }),
        (error: unknown) => live && setResult((last) => ({ value: last.value, error })),
      );
    };
    run();
    const stop = store.subscribe(filter, (change) => {
      // A draft's write changes nothing these views read.
      if (change.type !== 'drafted') timer ??= setTimeout(run, 16);
    });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      stop();
    };
  }, [key]);
  return result;
}
