/**
 * Keyed mutual exclusion inside one server process: work under the same key
 * runs one at a time, in arrival order. Enough for libsql, which one process
 * owns; on Postgres the locks are the database's (coordination.ts).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** True while some work under `key` runs or waits. */
  held(key: string): boolean {
    return this.tails.has(key);
  }
}

export const lockKey = (...parts: string[]): string => JSON.stringify(parts);
