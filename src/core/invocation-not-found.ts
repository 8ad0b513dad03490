/**
 * `InvocationNotFoundError`, of the store's error family (`INVOCATION_NOT_FOUND`), in a module of
 * its own: only `rewind` throws it, in a chunk the worker loads on first use, so neither the page
 * nor the worker's start-up carries it unless the app imports it. Named in the family's list
 * below, so it keeps its name when minified, and its class across the worker boundary wherever
 * the app imports it (elsewhere it arrives as a `SessionStoreError` with its code and name).
 */
import { familyNames, SessionStoreError } from './errors.js';

/** `rewind` named an invocation none of the session's events belongs to (adk-python's error of that name). */
export class InvocationNotFoundError extends SessionStoreError {
  constructor(message: string) {
    super('INVOCATION_NOT_FOUND', message);
  }
}

familyNames.set(InvocationNotFoundError, 'InvocationNotFoundError');
