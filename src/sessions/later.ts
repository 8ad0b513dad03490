/**
 * Session code outside the worker's start-up (imports, the read from the latest
 * compaction, sealing, rewinds, erasures: all rare), fetched on first use and warmed with the other parts
 * after the first answer (`host/warm.ts`), so a first use offline needs no
 * network. A compaction read loads its code before its transaction opens: an
 * `import()` awaited inside one would let it end.
 */
import { lazy } from '../core/lazy.js';

type Compaction = typeof import('./compaction.js');

let compaction: Compaction | undefined;

export const loadCompaction = lazy(async () => {
  compaction = await import('./compaction.js');
  return compaction;
});

/** The compaction read's code; `loadCompaction()` must have resolved. */
export function loadedCompaction(): Compaction {
  if (!compaction) throw new Error('the compaction read ran before its code was loaded');
  return compaction;
}

export const loadSeal = lazy(() => import('./seal.js'));

export const loadRewind = lazy(() => import('./rewind.js'));

export const loadErase = lazy(() => import('./erase.js'));

export const loadImport = lazy(() => import('./import.js'));
