/**
 * The machinery every live query shares: start on the first subscriber, stop
 * on the last, fold bursts of changes into one re-read, never run two reads at
 * once, and publish a new snapshot only when the value really changed. Every
 * published value is deeply frozen (see frozen.ts). The store closing ends the
 * query for good with a `'closed'` snapshot: learnt from the store's `onClose`
 * where it has one, else from the `StoreClosedError` a read gets.
 *
 * One object serves every framework: `getSnapshot` + `subscribe` are React's
 * `useSyncExternalStore` pair, `subscribe` calling back at once makes it a
 * Svelte store, and `Symbol.observable` (or `'@@observable'`) is the interop
 * RxJS's `from` reads.
 */

import { StoreClosedError } from '../core/errors.js';
import type { ChangeFilter, StoreChange } from '../database/changes.js';
import { deepFreeze } from './frozen.js';
import type {
  LiveObservable,
  LiveObserver,
  LiveOptions,
  LiveQuery,
  LiveSnapshot,
  LiveStore,
  LiveUnsubscribe,
} from './types.js';

/** What `refresh` returns when the value a reader would see is the one already held. */
export const UNCHANGED: unique symbol = Symbol('unchanged');

const LOADING: LiveSnapshot<never> = Object.freeze({ status: 'loading', value: undefined, error: undefined });

/** RxJS looks for `Symbol.observable` where the environment has it, else for this string. */
const OBSERVABLE_STRING = '@@observable';

/** A closed store's refusal, from this copy of the library or across a worker boundary. */
function isClosedError(error: unknown): error is StoreClosedError {
  return error instanceof StoreClosedError || (error as { code?: unknown } | null)?.code === 'STORE_CLOSED';
}

function unsubscriber(stop: () => void): LiveUnsubscribe {
  const unsubscribe = (): void => stop();
  unsubscribe.unsubscribe = unsubscribe;
  return unsubscribe;
}

/** What every live query needs of its store: to hear changes, and (where it can) of its closing. */
export type LiveFeed = Pick<LiveStore, 'subscribe' | 'onClose'>;

export abstract class LiveQueryBase<T, S extends LiveFeed = LiveStore> implements LiveQuery<T> {
  private snapshot: LiveSnapshot<T> = LOADING;
  private readonly listeners = new Set<() => void>();
  private stopFeed: (() => void) | undefined;
  private stopClose: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every start and stop: a read that began under an older generation is thrown away. */
  private generation = 0;
  private runningGeneration = -1;
  private dirty = false;
  private readonly coalesceMs: number;
  /** Defined on the prototype (see the constructor): the symbol may not exist where this runs. */
  declare [Symbol.observable]: () => LiveObservable<T>;

  constructor(
    protected readonly store: S,
    private readonly filter: ChangeFilter,
    options: LiveOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? 16;
    // Here rather than once at load: a `Symbol.observable` polyfill may arrive after this module.
    const interop = Symbol.observable;
    const proto = LiveQueryBase.prototype as unknown as Record<PropertyKey, unknown>;
    if (typeof interop === 'symbol' && !(interop in proto)) {
      Object.defineProperty(proto, interop, { value: proto[OBSERVABLE_STRING], configurable: true });
    }
  }

  /** Notes what `change` touches; false when it cannot change the value (then no read is scheduled). */
  protected abstract accept(change: StoreChange): boolean;

  /** Reads what the noted changes touched (everything after `reset`); `held` is the value readers have now. */
  protected abstract refresh(held: T | undefined): Promise<T | typeof UNCHANGED>;

  /** Forgets what was noted: the next refresh reads everything. Called on start and after a failed read. */
  protected abstract reset(): void;

  /**
   * Asks for a read, as a change `accept`ed does: for what changes without a notice (a writer's
   * death, a draft's preview), after `delayMs` (default the query's `coalesceMs`).
   */
  protected poke(delayMs = this.coalesceMs): void {
    if (this.stopFeed) this.schedule(delayMs);
  }

  /** Called when the query stops (its last subscriber left, or the store closed): release what `refresh` started. */
  protected stopped(): void {}

  getSnapshot = (): LiveSnapshot<T> => this.snapshot;

  subscribe = (listener: (snapshot: LiveSnapshot<T>) => void): LiveUnsubscribe => {
    // Each snapshot once per subscriber, even when starting publishes one (a store already closed).
    let last: LiveSnapshot<T> | undefined;
    const deliver = (): void => {
      if (this.snapshot === last) return;
      last = this.snapshot;
      listener(last);
    };
    const stop = this.listen(deliver);
    deliver();
    return unsubscriber(stop);
  };

  watch(onValue: (value: T) => void, onError?: (error: unknown) => void): () => void {
    let last: LiveSnapshot<T> | undefined;
    const deliver = () => {
      const snapshot = this.snapshot;
      if (snapshot === last) return;
      last = snapshot;
      if (snapshot.status === 'ready') onValue(snapshot.value);
      else if (snapshot.status === 'error' || snapshot.status === 'closed') onError?.(snapshot.error);
    };
    let stopped = false;
    const unsubscribe = this.listen(deliver);
    // A query already running has a value to give now; a new one delivers after its first read.
    if (this.snapshot.status !== 'loading') queueMicrotask(() => stopped || deliver());
    return () => {
      stopped = true;
      unsubscribe();
    };
  }

  /** The interop Observable: each snapshot, completing after the `'closed'` one. */
  [OBSERVABLE_STRING](): LiveObservable<T> {
    const observable: LiveObservable<T> = {
      subscribe: (observer: LiveObserver<LiveSnapshot<T>> | ((snapshot: LiveSnapshot<T>) => void)) => {
        const { next, complete } = typeof observer === 'function' ? { next: observer, complete: undefined } : observer;
        let done = false;
        let stop: (() => void) | undefined;
        const end = (): void => {
          done = true;
          stop?.();
        };
        stop = this.subscribe((snapshot) => {
          if (done) return;
          next?.call(observer, snapshot);
          if (snapshot.status === 'closed') {
            end();
            complete?.call(observer);
          }
        });
        // Closed already: the first snapshot ended it before `stop` existed.
        if (done) stop();
        return { unsubscribe: end };
      },
      [Symbol.observable ?? OBSERVABLE_STRING]: () => observable,
    } as LiveObservable<T>;
    return observable;
  }

  /** Adds a listener of new snapshots (none at once); the first starts the query, the last stops it. */
  private listen(listener: () => void): () => void {
    const entry = () => listener();
    this.listeners.add(entry);
    if (this.listeners.size === 1) this.start();
    return () => {
      if (this.listeners.delete(entry) && this.listeners.size === 0) this.stop();
    };
  }

  private start(): void {
    // Closed is final: nothing to read, nothing to hear.
    if (this.isClosed()) return;
    this.generation++;
    this.reset();
    this.stopFeed = this.store.subscribe(this.filter, (change) => {
      if (this.accept(change)) this.schedule(this.coalesceMs);
    });
    // Last: a store already closed calls back at once, and `close` must find the feed to release.
    const stopClose = this.store.onClose?.((error) => this.close(error));
    if (this.isClosed()) stopClose?.();
    else {
      this.stopClose = stopClose;
      this.readFirst();
    }
  }

  private isClosed(): boolean {
    return this.snapshot.status === 'closed';
  }

  private stop(): void {
    this.stopped();
    this.generation++;
    this.stopFeed?.();
    this.stopFeed = undefined;
    this.stopClose?.();
    this.stopClose = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Ends the query: reads in flight are thrown away, and the last value stays readable. */
  private close(error: StoreClosedError): void {
    if (this.snapshot.status === 'closed') return;
    this.stop();
    this.publish({ status: 'closed', value: this.snapshot.value, error });
  }

  /**
   * The first read is asked for in a microtask, not a timer: a timer waits until the page has laid
   * out and painted what subscribed, and only then would the store start reading. A subscription
   * dropped in the same task (React's strict mode mounts twice) reads nothing.
   */
  private readFirst(): void {
    this.dirty = true;
    const generation = this.generation;
    queueMicrotask(() => {
      if (generation === this.generation && this.runningGeneration !== generation && this.timer === undefined)
        void this.run();
    });
  }

  private schedule(delayMs: number): void {
    this.dirty = true;
    if (this.runningGeneration === this.generation || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delayMs);
  }

  private async run(): Promise<void> {
    const generation = this.generation;
    this.runningGeneration = generation;
    try {
      while (this.dirty && generation === this.generation) {
        this.dirty = false;
        const { status, value } = this.snapshot;
        try {
          const next = await this.refresh(value);
          if (generation !== this.generation) return;
          if (next !== UNCHANGED) this.publish({ status: 'ready', value: next, error: undefined });
          else if (status !== 'ready') this.publish({ status: 'ready', value: value as T, error: undefined });
        } catch (error) {
          if (generation !== this.generation) return;
          if (isClosedError(error)) {
            this.close(error);
            return;
          }
          this.reset();
          this.publish({ status: 'error', value, error });
        }
      }
    } finally {
      if (this.runningGeneration === generation) this.runningGeneration = -1;
    }
  }

  private publish(snapshot: LiveSnapshot<T>): void {
    // The value deeply (what is already frozen, as held events are, is not walked again); errors are the caller's.
    deepFreeze(snapshot.value);
    this.snapshot = Object.freeze(snapshot);
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        // One listener's failure must not keep the value from the others.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
