/**
 * What both hosts warm after start (see `lazy.ts`): the parts, and the code the
 * session engine loads itself on an import's first call (`sessions/import.ts`),
 * so that an offline import finds it too. A module of its own, kept out of the
 * page: the in-thread store reaches it through its warm-up chunk.
 */
import { PARTS } from './parts.js';

export const WARM = [...Object.values(PARTS), () => import('../sessions/import.js')];
