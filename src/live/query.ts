/**
 * The machinery every live query shares: start on the first subscriber, stop
 * on the last, fold bursts of changes into one re-read, never run two reads at
 * once, and publish a new snapshot only when the value really changed.
 */
import type { ChangeFilter } from '../changes.js';
import type { StoreChange } from '../protocol.js';
import type { LiveOptions, LiveQuery, LiveSnapshot, LiveStore } from './types.js';

/** What `refresh` returns when the value a reader would see is the one already held. */
export const UNCHANGED: unique symbol = Symbol('unchanged');

const LOADING: LiveSnapshot<never> = Object.freeze({ status: 'loading', value: undefined, error: undefined });

export abstract class LiveQueryBase<T> implements LiveQuery<T> {
  private snapshot: LiveSnapshot<T> = LOADING;
  private readonly listeners = new Set<() => void>();
  private stopFeed: (() => void) | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every start and stop: a read that began under an older generation is thrown away. */
  private generation = 0;
  private runningGeneration = -1;
  private dirty = false;
  private readonly coalesceMs: number;

  constructor(
    protected readonly store: LiveStore,
    private readonly filter: ChangeFilter,
    options: LiveOptions = {},
  ) {
    this.coalesceMs = options.coalesceMs ?? 16;
  }

  /** Notes what `change` touches; false when it cannot change the value (then no read is scheduled). */
  protected abstract accept(change: StoreChange): boolean;

  /** Reads what the noted changes touched (everything after `reset`); `held` is the value readers have now. */
  protected abstract refresh(held: T | undefined): Promise<T | typeof UNCHANGED>;

  /** Forgets what was noted: the next refresh reads everything. Called on start and after a failed read. */
  protected abstract reset(): void;

  getSnapshot = (): LiveSnapshot<T> => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    const entry = () => listener();
    this.listeners.add(entry);
    if (this.listeners.size === 1) this.start();
    return () => {
      if (this.listeners.delete(entry) && this.listeners.size === 0) this.stop();
    };
  };

  watch(onValue: (value: T) => void, onError?: (error: unknown) => void): () => void {
    let last: LiveSnapshot<T> | undefined;
    const deliver = () => {
      const snapshot = this.snapshot;
      if (snapshot === last) return;
      last = snapshot;
      if (snapshot.status === 'ready') onValue(snapshot.value);
      else if (snapshot.status === 'error') onError?.(snapshot.error);
    };
    let stopped = false;
    const unsubscribe = this.subscribe(deliver);
    // A query already running has a value to give now; a new one delivers after its first read.
    if (this.snapshot.status !== 'loading') queueMicrotask(() => stopped || deliver());
    return () => {
      stopped = true;
      unsubscribe();
    };
  }

  private start(): void {
    this.generation++;
    this.reset();
    this.stopFeed = this.store.subscribe(this.filter, (change) => {
      if (this.accept(change)) this.schedule(this.coalesceMs);
    });
    this.schedule(0);
  }

  private stop(): void {
    this.generation++;
    this.stopFeed?.();
    this.stopFeed = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
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
          this.reset();
          this.publish({ status: 'error', value, error });
        }
      }
    } finally {
      if (this.runningGeneration === generation) this.runningGeneration = -1;
    }
  }

  private publish(snapshot: LiveSnapshot<T>): void {
    this.snapshot = snapshot;
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
