/**
 * `EventNotFoundError`, of the store's error family (`EVENT_NOT_FOUND`), in a module of its own:
 * only `erase` throws it, in a chunk the worker loads on first use, so neither the page nor the
 * worker's start-up carries it unless the app imports it (as `InvocationNotFoundError`). Named in
 * the family's list below, so it keeps its name when minified, and its class across the worker
 * boundary wherever the app imports it (elsewhere it arrives as a `SessionStoreError` with its code
 * and name).
 */
import { familyNames, SessionStoreError } from './errors.js';

/** `erase` named an event id the session does not hold. Nothing was erased. */
export class EventNotFoundError extends SessionStoreError {
  constructor(message: string) {
    super('EVENT_NOT_FOUND', message);
  }
}

familyNames.set(EventNotFoundError, 'EventNotFoundError');
