/**
 * Group commit: every write of one kind waiting at one moment goes into a
 * single transaction, because IndexedDB's cost is per transaction, not per
 * record. Writes issued in the same turn join the first group; those arriving
 * while a group commits form the next.
 */

/** One write's result: its value, or the error that fails it alone. */
export type Settled<R> = { value: R; error?: undefined } | { value?: undefined; error: Error };

export interface GroupCommit<T, R> {
  /**
   * Writes `items` in one transaction. Resolves with one result per item; must
   * reject (so that no item is acknowledged) if the transaction aborts.
   */
  write(items: T[]): Promise<Settled<R>[]>;
  /** Runs once the group's promises are settled: change notices go out after the acknowledgements. */
  committed?(items: T[], results: Settled<R>[]): void;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/** A group that fails for one of these reasons would fail for every item alone too. */
const SHARED_FAILURES = new Set(['QUOTA_EXCEEDED', 'STORE_CLOSED']);

export class GroupQueue<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly commit: GroupCommit<T, R>,
    private readonly maxGroup: number,
  ) {}

  /** Must resolve only after the transaction holding `item` has committed, and reject if it aborts. */
  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Settles once nothing is waiting or being written. */
  async drained(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    await Promise.resolve();
    while (this.waiting.length > 0) {
      await this.run(this.waiting.splice(0, this.maxGroup), true);
    }
    this.flushing = undefined;
  }

  private async run(group: Waiting<T, R>[], mayRetryAlone: boolean): Promise<void> {
    const items = group.map((w) => w.item);
    let results: Settled<R>[];
    try {
      results = await this.commit.write(items);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (mayRetryAlone && group.length > 1 && !(code && SHARED_FAILURES.has(code))) {
        // Whatever aborted the group may belong to one item: retry each alone so the others land.
        for (const w of group) await this.run([w], false);
        return;
      }
      for (const w of group) w.reject(error);
      return;
    }
    results.forEach((result, i) => {
      const w = group[i] as Waiting<T, R>;
      if (result.error) w.reject(result.error);
      else w.resolve(result.value as R);
    });
    this.commit.committed?.(items, results);
  }
}
