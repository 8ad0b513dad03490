/**
 * The inspector's one error of its own: its views (a chunk fetched on first
 * open) could not be loaded. A member of the store's error family, so an app
 * handles it as it handles the others; raised on the page only.
 */
import { familyNames } from '../core/errors.js';
import { SessionStoreError } from '../index.js';

/**
 * `open()` could not fetch the inspector's views (offline, or a redeploy
 * removed the chunk the page was built with); the browser's own error is its
 * `cause`. Nothing is left half-mounted: the next `open()` fetches them again.
 */
export class InspectorLoadError extends SessionStoreError {
  constructor(cause: unknown) {
    super('LOAD_FAILED', 'The inspector could not be loaded', { cause });
  }
}

familyNames.set(InspectorLoadError, 'InspectorLoadError');
