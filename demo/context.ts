/** What every part of the inspector shares: the store, the selection, feedback. */
import type { SessionStore } from '../src/index.js';
import type { Selection } from './route.js';
import type { Status } from './status.js';

export interface Inspector {
  readonly store: SessionStore;
  readonly dbName: string;
  readonly status: Status;
  selection(): Selection;
  /** Selects `next` (adding a history entry unless `replace`); resolves once the panes show it. */
  navigate(next: Selection, options?: { replace?: boolean }): Promise<void>;
}

/** The app and user new sessions go to when nothing is selected. */
export const DEFAULT_APP = 'demo-app';
export const DEFAULT_USER = 'demo-user';
