/**
 * The draft requests behind the store's boundary check (the page is another
 * realm, or an app's code in this one): each validated, then handed to the
 * store's drafts engine. A worker host serves them and an in-thread store calls them.
 */
import { sessionKeySchema, validate } from '../core/schema.js';
import type { DatabaseOwner } from '../database/database.js';
import { draftEngineFor } from './engine.js';
import type { DraftBackend, WriteDraft } from './protocol.js';
import { beginDraftSchema, claimDraftSchema, draftRequestSchema, writeDraftSchema } from './schema.js';

/** The draft methods of the store `owner()` gives (it may throw, as a host's does before hello). */
export function checked(owner: () => DatabaseOwner): DraftBackend {
  const engine = () => draftEngineFor(owner());
  return {
    beginDraft: (r) => engine().beginDraft(validate('drafts.begin', beginDraftSchema, r)),
    writeDraft: (r) => engine().writeDraft(validate('drafts.append', writeDraftSchema, r) as WriteDraft),
    readDrafts: (r) => engine().readDrafts(validate('drafts.list', sessionKeySchema, r)),
    claimDraft: (r) => engine().claimDraft(validate('drafts.resume', claimDraftSchema, r)),
    dropDraft: (r) => engine().dropDraft(validate('drafts.drop', draftRequestSchema, r)),
  };
}
