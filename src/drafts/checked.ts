/**
 * The draft requests behind the store's boundary check (the page is another
 * realm, or an app's code in this one): each validated, then handed to the
 * store's drafts engine. A worker host serves them and an in-thread store calls them.
 */
import { sessionKeySchema, validate } from '../core/schema.js';
import type { DatabaseOwner } from '../database/database.js';
import { draftEngineFor } from './engine.js';
import type { DraftBackend, WriteDraft } from './protocol.js';
import {
  beginDraftSchema,
  claimDraftSchema,
  draftRequestSchema,
  draftTailsSchema,
  writeDraftSchema,
} from './schema.js';

/** The draft methods of the store `owner()` gives (it may throw, as a host's does before hello). */
export function checked(owner: () => DatabaseOwner): DraftBackend {
  const engine = () => draftEngineFor(owner());
  return {
    beginDraft: (r) => engine().beginDraft(validate('beginDraft', beginDraftSchema, r)),
    writeDraft: (r) => engine().writeDraft(validate('appendToDraft', writeDraftSchema, r) as WriteDraft),
    readDrafts: (r) => engine().readDrafts(validate('listDrafts', sessionKeySchema, r)),
    readDraftTails: (r) => engine().readDraftTails(validate('watchDrafts', draftTailsSchema, r)),
    claimDraft: (r) => engine().claimDraft(validate('resumeDraft', claimDraftSchema, r)),
    dropDraft: (r) => engine().dropDraft(validate('dropDraft', draftRequestSchema, r)),
  };
}
