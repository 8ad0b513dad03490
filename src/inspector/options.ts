/** What `mountInspector` takes and returns, and what its views are given. */
import type { SessionKey, SyncHandle } from '../index.js';

/** Where the open inspector sits: docked to an edge of the window, or filling it (or `target`). */
export type InspectorPosition = 'bottom' | 'right' | 'left' | 'full';

/** Colours: the system's (`'auto'`, the default), or always light or dark. */
export type InspectorTheme = 'auto' | 'light' | 'dark';

/** What `mountInspector` takes besides the store. */
export interface InspectorOptions {
  /** The element the inspector is added to; `document.body` when absent. */
  target?: HTMLElement;
  /** Opens it at once (and loads its code) instead of on the first click of its button. */
  initialOpen?: boolean;
  /** `'bottom'` (default), `'right'`, `'left'`, or `'full'`: the whole window, or the whole `target`. */
  position?: InspectorPosition;
  /**
   * Shows the controls that change the store: delete a session, set a state
   * key (appended as an event by the author `inspector`). `false` by default.
   */
  allowWrites?: boolean;
  /** The app's running sync, whose status the inspector then shows. */
  sync?: SyncHandle;
  /** Colours; `'auto'` follows `prefers-color-scheme`. */
  theme?: InspectorTheme;
  /** The session to show first (its app and user are selected with it). */
  initialSession?: SessionKey;
}

/** What `mountInspector` returns. */
export interface InspectorHandle {
  /** Whether the panel is open. */
  readonly isOpen: boolean;
  /**
   * Opens the panel; resolves once its code is loaded and it is shown. Rejects
   * with an `InspectorLoadError` when its code cannot be fetched (the next call
   * tries again).
   */
  open(): Promise<void>;
  /** Closes the panel (it keeps its place and selection for the next open). */
  close(): void;
  /**
   * Shows `session` (its app and user picked with it), as `initialSession` does at mount, keeping
   * the filters and folds as they are: for an app whose own view moves to another session.
   */
  showSession(session: SessionKey): void;
  /** Opens a closed panel, closes an open one; resolves like `open`. */
  toggle(): Promise<void>;
  /** Removes the button and the panel from the page and stops every query the inspector ran. */
  destroy(): void;
}

/** The options the inspector's views receive, defaults applied. */
export interface ResolvedInspectorOptions {
  position: InspectorPosition;
  allowWrites: boolean;
  sync: SyncHandle | undefined;
  initialSession: InspectorOptions['initialSession'];
  onClose(): void;
}
