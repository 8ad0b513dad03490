/** Small statistics for benchmark figures. Pure: runs in the page, in Node and in tests. */

/**
 * The `p`-th percentile (0..100) of `values`, interpolating linearly between
 * the two nearest ranks (the common "type 7" definition: p50 of [1, 2, 3, 4] is 2.5).
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of no values');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (rank - low);
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** `(max - min) / median`: 0.1 means the repetitions spread over 10% of the median. */
  spread: number;
  /** The repetitions, in the order they ran. */
  values: number[];
}

export function summarize(values: readonly number[]): Summary {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spread: m === 0 ? 0 : (max - min) / m, values: [...values] };
}
