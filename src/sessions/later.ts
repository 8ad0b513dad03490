/**
 * Session code outside the worker's start-up: the read from the latest compaction and
 * sealing, fetched on first use and warmed with the other parts after the first answer
 * (host/lazy.ts), so a first use offline needs no network. A compaction read loads its code
 * before its transaction opens: an `import()` awaited inside one would end it.
 */
type Compaction = typeof import('./compaction.js');

let compaction: Compaction | undefined;

/** Loads the compaction read's code; `loadedCompaction()` gives it once this resolved. */
export async function loadCompaction(): Promise<Compaction> {
  compaction ??= await import('./compaction.js');
  return compaction;
}

/** The compaction read's code, which `loadCompaction` must have loaded. */
export function loadedCompaction(): Compaction {
  if (!compaction) throw new Error('the compaction read was used before its code was loaded');
  return compaction;
}

export const loadSeal = () => import('./seal.js');

/** What the warm-up loads besides the parts. */
export const SESSION_EXTRAS: readonly (() => Promise<unknown>)[] = [loadCompaction, loadSeal];
