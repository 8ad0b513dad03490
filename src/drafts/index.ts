/**
 * Drafts: replies stored as they stream, on the session store's database:
 * `store.drafts` on every store. A draft is written in chunks as the reply
 * grows, seen live by other tabs, found after a crash, and turned into its
 * final event in one transaction.
 */
export type {
  BeginDraftRequest,
  Draft,
  DraftDelta,
  DraftRequest,
  DraftsFront,
  DraftWriter,
  FinishDraftOptions,
  ResumeDraftRequest,
} from '../public/drafts.js';
