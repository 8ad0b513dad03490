/**
 * Counts what fake-indexeddb hands back to the store, by wrapping the read
 * methods on its classes' prototypes. Counting at this level, under the store,
 * measures the store's real read pattern rather than what its code says it does.
 */
import { IDBCursor, IDBIndex, IDBObjectStore } from 'fake-indexeddb';

/** What one measured stretch of work read. */
export interface ReadTally {
  /** Records handed back with their value: `get`, `getAll`, each step of a value cursor. */
  values: number;
  /** Keys handed back or stepped over: `getKey`, `getAllKeys`, key-cursor steps, keys skipped by `advance`, keys a `count` walks. */
  keys: number;
  /** Every `count()` call, as `store` or `store.index`, so a test can forbid them on large stores. */
  counts: string[];
  /** Reads per source (`store` or `store.index`), for diagnosing a failing bound. */
  bySource: Map<string, number>;
}

export interface ReadCounter {
  /** Runs `work` and returns what it read. Reads started outside `measure` are not counted. */
  measure<T>(work: () => Promise<T>): Promise<{ result: T; reads: ReadTally }>;
  /** Starts a tally that runs until `stop`: for whole workloads spanning many calls. */
  start(): () => ReadTally;
  restore(): void;
}

type Source = IDBObjectStore | IDBIndex;
type Kind = 'values' | 'keys';
// biome-ignore lint/suspicious/noExplicitAny: wraps arbitrary IndexedDB methods whatever their signatures.
type AnyMethod = (this: any, ...args: any[]) => any;

const sourceName = (source: Source): string =>
  'objectStore' in source ? `${source.objectStore.name}.${source.name}` : source.name;

const lengthOf = (result: unknown): number => (Array.isArray(result) ? result.length : 0);
const presence = (result: unknown): number => (result === undefined ? 0 : 1);
/** A cursor request succeeds once per step; `null` means it ran off the end. */
const cursorStep = (result: unknown): number => (result === null || result === undefined ? 0 : 1);

const methods: { name: string; kind: Kind; measure: (result: unknown) => number }[] = [
  { name: 'get', kind: 'values', measure: presence },
  { name: 'getAll', kind: 'values', measure: lengthOf },
  { name: 'getAllRecords', kind: 'values', measure: lengthOf },
  { name: 'getKey', kind: 'keys', measure: presence },
  { name: 'getAllKeys', kind: 'keys', measure: lengthOf },
  { name: 'openCursor', kind: 'values', measure: cursorStep },
  { name: 'openKeyCursor', kind: 'keys', measure: cursorStep },
  // A range count walks the keys it counts in real IndexedDB (LevelDB keeps no counts).
  { name: 'count', kind: 'keys', measure: (r) => (typeof r === 'number' ? r : 0) },
];

export function installReadCounter(): ReadCounter {
  let tally: ReadTally | undefined;
  const undo: (() => void)[] = [];

  const patch = (proto: object, name: string, wrap: (original: AnyMethod) => AnyMethod): void => {
    const original = Reflect.get(proto, name) as AnyMethod | undefined;
    if (typeof original !== 'function') return;
    Reflect.set(proto, name, wrap(original));
    undo.push(() => Reflect.set(proto, name, original));
  };

  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    for (const { name, kind, measure } of methods) {
      patch(
        proto,
        name,
        (original) =>
          function (this: Source, ...args: unknown[]): IDBRequest {
            const request = original.apply(this, args) as IDBRequest;
            const current = tally;
            if (!current) return request;
            const source = sourceName(this);
            if (name === 'count') current.counts.push(source);
            // A cursor request fires `success` again after every continue/advance, so this listener sees each step.
            request.addEventListener('success', () => {
              const n = measure(request.result);
              current[kind] += n;
              current.bySource.set(source, (current.bySource.get(source) ?? 0) + n);
            });
            return request;
          },
      );
    }
  }
  // `advance(n)` lands on one record (counted by the request listener) after stepping over n - 1 others.
  patch(
    IDBCursor.prototype,
    'advance',
    (original) =>
      function (this: IDBCursor, count: number): void {
        if (tally && count > 1) tally.keys += count - 1;
        original.call(this, count);
      },
  );

  const fresh = (): ReadTally => ({ values: 0, keys: 0, counts: [], bySource: new Map() });
  return {
    start() {
      const own = fresh();
      tally = own;
      return () => {
        if (tally === own) tally = undefined;
        return own;
      };
    },
    async measure(work) {
      const stop = this.start();
      try {
        const result = await work();
        return { result, reads: stop() };
      } finally {
        stop();
      }
    },
    restore() {
      for (const u of undo.reverse()) u();
      tally = undefined;
    },
  };
}
