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
export { foldDelta } from './content.js';
export { type DraftPreview, isPreview, previewChannel } from './preview.js';
export { DRAFTS_LIVE, type DraftChunk, type DraftsLive, type DraftTail, type DraftTails } from './protocol.js';
