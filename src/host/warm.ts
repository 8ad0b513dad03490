/**
 * What both hosts warm after start (see `lazy.ts`): the parts, and the code the
 * session engine loads itself on first use (imports, compaction reads, sealing,
 * rewinds and the artifacts a rewind brings back, erasures and what they remove beside the events),
 * so that an offline first use finds it too. A module of its own, kept out of the
 * page: the in-thread store reaches it through its warm-up chunk.
 */
import { sessionArtifactsRewind } from '../artifacts/hooks.js';
import { sessionMemoryErase } from '../memory/hooks.js';
import { sessionSearchErase } from '../search/hooks.js';
import { loadCompaction, loadErase, loadImport, loadRewind, loadSeal } from '../sessions/later.js';
import { PARTS } from './parts.js';

export const WARM = [
  ...Object.values(PARTS),
  loadImport,
  loadCompaction,
  loadSeal,
  loadRewind,
  sessionArtifactsRewind.load,
  loadErase,
  sessionMemoryErase.load,
  sessionSearchErase.load,
];
