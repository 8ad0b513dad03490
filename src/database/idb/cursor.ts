/**
 * Key ranges as plain values, and cursors that honour them. Where the
 * factory's realm has its `IDBKeyRange` as a global (every browser), a range
 * becomes a native one and IndexedDB does the work. Elsewhere (a factory passed
 * in with no globals) there is no way to build one: a cursor then opens on the
 * whole source, jumps to the range's edge with `continue(key)`, and stops at the
 * other, comparing keys with the factory's own `cmp`.
 */
import { settle } from './requests.js';

export interface Bounds<K = IDBValidKey> {
  lower: K;
  upper: IDBValidKey;
  lowerOpen: boolean;
  upperOpen: boolean;
}

/** Every key from `lower` to `upper`; open ends exclude their key. */
export function bound<K extends IDBValidKey>(lower: K, upper: IDBValidKey, lowerOpen = false, upperOpen = false) {
  return { lower, upper, lowerOpen, upperOpen } as Bounds<K>;
}

export type Query = IDBValidKey | Bounds;

export const isBounds = (query: Query | undefined): query is Bounds =>
  typeof query === 'object' && query !== null && 'upperOpen' in query && !Array.isArray(query);

/** How keys and ranges are made for one factory's realm. */
export interface Realm {
  cmp(a: unknown, b: unknown): number;
  /** The realm's own `IDBKeyRange`, when it can be reached. */
  KeyRange: typeof IDBKeyRange | undefined;
}

/** `KeyRange` is the factory's own class, if the caller has it; else the global one, if it is the factory's realm. */
export function realmOf(factory: IDBFactory, KeyRange?: typeof IDBKeyRange): Realm {
  const native =
    KeyRange ??
    (typeof IDBFactory !== 'undefined' && typeof IDBKeyRange !== 'undefined' && factory instanceof IDBFactory
      ? IDBKeyRange
      : undefined);
  return { cmp: (a, b) => factory.cmp(a, b), KeyRange: native };
}

/** `query` as the realm's native query, or `undefined` when a range must be emulated. */
export function nativeQuery(realm: Realm, query: Query | undefined): IDBValidKey | IDBKeyRange | null | undefined {
  if (query === undefined) return null;
  if (!isBounds(query)) return query;
  return realm.KeyRange?.bound(query.lower, query.upper, query.lowerOpen, query.upperOpen);
}

type Source = IDBObjectStore | IDBIndex;

/** One cursor position; `next()` resolves the following one, or `null` past the end of the range. */
export class Cursor<V = unknown, K = IDBValidKey, P = IDBValidKey> {
  private constructor(
    private readonly native: IDBCursor,
    private readonly request: IDBRequest<IDBCursor | null>,
    private readonly within: ((key: IDBValidKey) => boolean) | undefined,
  ) {}

  get key(): K {
    return this.native.key as K;
  }
  get primaryKey(): P {
    return this.native.primaryKey as P;
  }
  /** Only for a cursor opened with values. */
  get value(): V {
    return (this.native as IDBCursorWithValue).value as V;
  }

  /** Deletes the record under the cursor; settled through the transaction. */
  delete(): void {
    this.native.delete();
  }

  continue(): Promise<Cursor<V, K, P> | null> {
    this.native.continue();
    return this.step();
  }

  async advance(count: number): Promise<Cursor<V, K, P> | null> {
    if (!this.within) {
      this.native.advance(count);
      return this.step();
    }
    let at: Cursor<V, K, P> | null = this;
    for (let i = 0; i < count && at; i++) at = await at.continue();
    return at;
  }

  private async step(): Promise<Cursor<V, K, P> | null> {
    const next = await settle(this.request);
    if (!next || (this.within && !this.within(next.key))) return null;
    return this;
  }

  static async open<V, K, P>(
    realm: Realm,
    source: Source,
    query: Query | undefined,
    direction: IDBCursorDirection,
    withValues: boolean,
  ): Promise<Cursor<V, K, P> | null> {
    const open = (q: IDBValidKey | IDBKeyRange | null): IDBRequest<IDBCursor | null> =>
      withValues
        ? (source.openCursor(q, direction) as IDBRequest<IDBCursor | null>)
        : source.openKeyCursor(q, direction);
    const native = nativeQuery(realm, query);
    if (native !== undefined) {
      const request = open(native);
      const first = await settle(request);
      return first && new Cursor<V, K, P>(first, request, undefined);
    }
    const range = query as Bounds;
    const forward = direction === 'next' || direction === 'nextunique';
    const [edge, edgeOpen] = forward ? [range.lower, range.lowerOpen] : [range.upper, range.upperOpen];
    // Signed so that "before the range's start" is negative in either direction.
    const sign = forward ? 1 : -1;
    const beforeStart = (key: IDBValidKey): boolean => {
      const c = realm.cmp(key, edge) * sign;
      return c < 0 || (c === 0 && edgeOpen);
    };
    const within = (key: IDBValidKey): boolean => {
      const [far, farOpen] = forward ? [range.upper, range.upperOpen] : [range.lower, range.lowerOpen];
      const c = realm.cmp(key, far) * sign;
      return c < 0 || (c === 0 && !farOpen);
    };
    const request = open(null);
    let at = await settle(request);
    if (at && realm.cmp(at.key, edge) * sign < 0) {
      at.continue(edge);
      at = await settle(request);
    }
    while (at && beforeStart(at.key)) {
      at.continue();
      at = await settle(request);
    }
    return at && within(at.key) ? new Cursor<V, K, P>(at, request, within) : null;
  }
}
