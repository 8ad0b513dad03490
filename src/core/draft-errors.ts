/**
 * The drafts' errors, of the store's error family, in a module of their own: only
 * the drafts capability throws them, so neither the page nor the worker's start-up
 * carries them unless the app uses drafts. Named in the family's list, so each keeps
 * its name when minified and its class across the worker boundary.
 */
import { familyNames, SessionStoreError } from './errors.js';

/** The draft named is not stored: it was finished, dropped, or removed with its session. */
export class DraftNotFoundError extends SessionStoreError {
  constructor(message: string) {
    super('DRAFT_NOT_FOUND', message);
  }
}

/** The draft is still being written by a live tab: only an interrupted draft can be resumed or kept. */
export class DraftInUseError extends SessionStoreError {
  constructor(message: string) {
    super('DRAFT_IN_USE', message);
  }
}

familyNames.set(DraftNotFoundError, 'DraftNotFoundError');
familyNames.set(DraftInUseError, 'DraftInUseError');
