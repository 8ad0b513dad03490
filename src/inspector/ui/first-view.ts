/**
 * What the views show first, read before their first render. Opening the
 * inspector on nothing in particular shows the first app's newest session;
 * left to the views, that is three reads each after a render of its own (the
 * apps, then the app's sessions, then the session), and every render of a
 * page just opened is slow (cold layout, fonts). Here the session is found in
 * two quick reads and its newest events are asked for at once; the views render
 * once they have arrived (or after `FIRST_WAIT_MS`), taking over the same live
 * query, so the rows come with the first layout and paint rather than a second.
 */
import type { SessionKey, SessionStore } from '../../index.js';
import type { Selection } from './pickers.js';
import { type WarmSession, warmSession } from './session-events.js';

/** How long the views wait for the first session's newest events before they render without them. */
const FIRST_WAIT_MS = 150;

/** A session as the pickers select it: its app, its user, and it. */
export const selectionOf = (key: SessionKey): Selection => ({
  appName: key.appName,
  userId: key.userId,
  session: { userId: key.userId, sessionId: key.sessionId },
});

/** The first app's newest session (of any user); `undefined` when the store holds none. */
async function newestSelection(store: SessionStore): Promise<Selection | undefined> {
  const [app] = await store.listApps();
  if (!app) return undefined;
  const { appName } = app;
  const [newest] = (await store.listSessions({ appName, order: 'desc', limit: 1 })).sessions;
  return { appName, userId: undefined, session: newest && { userId: newest.userId, sessionId: newest.id } };
}

/** What the views start on: the selection, and the selected session's live query, already reading. */
export interface FirstView {
  selection: Selection;
  /** Held running until the views subscribe to it (they release the hold then). */
  warm: WarmSession | undefined;
}

/**
 * Finds what to show first (`initial`, else the newest session) and starts reading it. Resolves
 * once its newest events are read or `FIRST_WAIT_MS` has passed, whichever is first: a slow store
 * delays the views no longer than that. Without a selection by then, `undefined`: the views find
 * their own. A failed read is the views' to meet and show.
 */
export async function firstView(store: SessionStore, initial: SessionKey | undefined): Promise<FirstView | undefined> {
  let timer: number | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = window.setTimeout(resolve, FIRST_WAIT_MS);
  });
  try {
    const selection = initial
      ? selectionOf(initial)
      : await Promise.race([newestSelection(store).catch(() => undefined), late]);
    if (!selection?.appName || !selection.session) return selection && { selection, warm: undefined };
    const { userId, sessionId } = selection.session;
    const warm = warmSession(store, { appName: selection.appName, userId, sessionId });
    await Promise.race([warm.ready, late]);
    return { selection, warm };
  } finally {
    clearTimeout(timer);
  }
}
