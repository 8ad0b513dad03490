/** Shared by the Node and Chromium tests of live queries and hooks. */
import type { LiveQuery, LiveStore } from '../../src/index.js';

/** Every value and error a query delivers, in order. */
export function collect<T>(query: LiveQuery<T>): { values: T[]; errors: unknown[]; stop: () => void } {
  const values: T[] = [];
  const errors: unknown[] = [];
  const stop = query.watch(
    (value) => values.push(value),
    (error) => errors.push(error),
  );
  return { values, errors, stop };
}

/** A store that records the reads a live query makes, and how many change subscriptions are open. */
export function recordingStore(store: LiveStore): {
  store: LiveStore;
  reads: string[];
  subscriptions: () => number;
} {
  const reads: string[] = [];
  let open = 0;
  const recorded: LiveStore = {
    getSession: (request) => {
      const n = request.config?.numRecentEvents;
      reads.push(n === undefined ? 'getSession' : `getSession(last ${n})`);
      return store.getSession(request);
    },
    listSessions: (request) => {
      reads.push('listSessions');
      return store.listSessions(request);
    },
    getUserState: (request) => {
      reads.push('getUserState');
      return store.getUserState(request);
    },
    getAppState: (request) => {
      reads.push('getAppState');
      return store.getAppState(request);
    },
    subscribe: (filter, listener) => {
      open++;
      const stop = store.subscribe(filter, listener);
      return () => {
        open--;
        stop();
      };
    },
  };
  return { store: recorded, reads, subscriptions: () => open };
}
