/** What the demo app's parts share: the store, the open conversation, feedback. */
import type { SessionStore } from '../src/index.js';
import type { Selection } from './route.js';
import type { Status } from './status.js';

export interface DemoApp {
  readonly store: SessionStore;
  readonly status: Status;
  /** The open conversation (its app and user), from the URL. */
  selection(): Selection;
  /** Opens `next` (adding a history entry unless `replace`); resolves once the chat shows it. */
  navigate(next: Selection, options?: { replace?: boolean }): Promise<void>;
}

/** The app and user new sessions go to when nothing is open. */
export const DEFAULT_APP = 'demo-app';
export const DEFAULT_USER = 'demo-user';
