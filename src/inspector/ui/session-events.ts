/**
 * The selected session, read in two steps so a long one opens at once: a live
 * query of its newest events (a read of a few hundred events is quick however
 * long the session), then one read of the whole session, joined to that live
 * window by event id. New events come through the live query; the whole
 * session is read again only if the window has moved past what was read.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Event, type LiveQuery, type Session, type SessionStore, watchSession } from '../../index.js';
import { useLive } from './hooks.js';

/** How many of the newest events the first read brings. */
export const RECENT = 100;

export interface SessionView {
  session: Session | undefined;
  events: readonly Event[];
  /** All of the session's events are in `events` (else only the newest `RECENT`). */
  complete: boolean;
  status: 'loading' | 'ready' | 'error' | 'closed' | 'none';
}

interface Key {
  appName: string;
  userId: string;
  sessionId: string;
}

const idOf = (key: Key | undefined): string =>
  JSON.stringify(key ? { appName: key.appName, userId: key.userId, sessionId: key.sessionId } : null);
const recentOf = (store: SessionStore, key: Key): LiveQuery<Session | undefined> =>
  watchSession(store, { ...key, config: { numRecentEvents: RECENT } });

/** The live query of a session's newest events, started before the views need it (first-view.ts). */
export interface WarmSession {
  id: string;
  query: LiveQuery<Session | undefined>;
  /** Resolves once the first read has answered (or failed). */
  ready: Promise<void>;
  /** Drops the hold that keeps the query running; a view subscribed to it keeps it running still. */
  release(): void;
}

export function warmSession(store: SessionStore, key: Key): WarmSession {
  const query = recentOf(store, key);
  let release = (): void => {};
  const ready = new Promise<void>((resolve) => {
    release = query.subscribe((snapshot) => {
      if (snapshot.status !== 'loading') resolve();
    });
  });
  return { id: idOf(key), query, ready, release };
}

/** `warm`: a query started ahead for the first key, taken over when that is the key shown. */
export function useSessionEvents(store: SessionStore, key: Key | undefined, warm?: WarmSession): SessionView {
  const id = idOf(key);
  const ahead = warm?.id === id ? warm.query : undefined;
  // The query started ahead gives its value to the first render already.
  const recent = useLive(() => (key ? (ahead ?? recentOf(store, key)) : undefined), id, ahead?.getSnapshot());
  const [history, setHistory] = useState<{ id: string; events: readonly Event[] } | undefined>(undefined);
  const [reads, setReads] = useState(0);

  const shown = recent?.status === 'ready';
  // The whole session is read once the newest events are shown, so the two reads do not compete.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `id` stands for `key`; `reads` asks for a new read.
  useEffect(() => {
    if (!key || !shown) return;
    let live = true;
    store.getSession(key).then(
      (whole) => live && setHistory({ id, events: whole?.events ?? [] }),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [id, reads, shown]);

  const window = recent?.value?.events;
  const joined = useMemo(() => {
    if (!window) return { events: [] as readonly Event[], complete: false, gap: false };
    if (!history || history.id !== id) return { events: window, complete: window.length < RECENT, gap: false };
    const first = window[0];
    if (!first) return { events: window, complete: true, gap: false };
    const at = history.events.findIndex((e) => e.id === first.id);
    if (at < 0) return { events: window, complete: false, gap: true };
    return { events: [...history.events.slice(0, at), ...window], complete: true, gap: false };
  }, [window, history, id]);

  useEffect(() => {
    if (joined.gap) setReads((n) => n + 1);
  }, [joined.gap]);

  return {
    session: recent?.value,
    events: joined.events,
    complete: joined.complete,
    status: !key ? 'none' : (recent?.status ?? 'loading'),
  };
}
