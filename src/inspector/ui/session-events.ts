/**
 * The selected session, read in two steps so a long one opens at once: a live
 * query of its newest events (a read of a few hundred events is quick however
 * long the session), then one read of the whole session, joined to that live
 * window by event id. New events come through the live query; the whole
 * session is read again only if the window has moved past what was read.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { type Event, type Session, type SessionStore, watchSession } from '../../index.js';
import { useLive } from './hooks.js';

/** How many of the newest events the first read brings. */
export const RECENT = 300;

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

export function useSessionEvents(store: SessionStore, key: Key | undefined): SessionView {
  const id = JSON.stringify(key ?? null);
  const recent = useLive(
    () => (key ? watchSession(store, { ...key, config: { numRecentEvents: RECENT } }) : undefined),
    id,
  );
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
