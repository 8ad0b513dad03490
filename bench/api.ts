/** What the bench page offers the driver, as `window.bench`. */
import type { ContenderId } from './contender.js';
import type { Sizes, WorkloadId } from './plan.js';
import type { Metrics } from './workloads.js';

export interface PageInfo {
  userAgent: string;
  crossOriginIsolated: boolean;
  /** Whether the raw contenders read backwards in one request (`getAllRecords`) or walk a cursor. */
  getAllRecords: boolean;
}

export interface BenchApi {
  info(): PageInfo;
  /** Builds the contender's fixtures; build time of each, in ms. */
  setup(contender: ContenderId, sizes: Sizes): Promise<Record<string, number>>;
  measure(workload: WorkloadId, contender: ContenderId, sizes: Sizes, rep: number): Promise<Metrics>;
  /** Opens the contender's database and reads one session: meant for a freshly loaded page. */
  coldStart(contender: ContenderId, sizes: Sizes): Promise<Metrics>;
  closeAll(): Promise<void>;
}

declare global {
  interface Window {
    bench: BenchApi;
  }
}
