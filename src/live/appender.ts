/**
 * Appending from a UI: the stale-retry pattern built in. Each append goes
 * through a handle on the session (its state, no events); when another tab
 * moved the session on (`StaleSessionError`, nothing stored), the handle is
 * re-read, the events are built again from the fresh state, and the append is
 * retried, up to `attempts` times.
 */
import { SessionNotFoundError, StaleSessionError } from '../core/errors.js';
import type { AppendEventsRequest, Event, Session, SessionKey, SessionService } from '../types.js';

/** Events, or a function building them from the session's current state (`events` is always empty there). */
export type AppendInput = Event | Event[] | ((session: Session) => Event | Event[]);

/** This library's stores append a call's events all or nothing (`appendEvents`); another store gets them one by one. */
export type AppendStore = Pick<SessionService, 'getSession' | 'appendEvent'> & {
  appendEvents?(request: AppendEventsRequest): Promise<Event[]>;
};

/** How an appender retries after another tab moved the session on. */
export interface AppenderOptions {
  /** Tries before a `StaleSessionError` is passed on (default 3). */
  attempts?: number;
}

/** Resolves to the events as stored once they all are; all of one call go in one transaction. */
export type Appender = (input: AppendInput) => Promise<Event[]>;

/** An `Appender` for the session `key` names: appends with the stale-retry built in (re-reads the session and builds the events again from its fresh state). The session must exist (`SessionNotFoundError` otherwise). */
export function createAppender(store: AppendStore, key: SessionKey, options: AppenderOptions = {}): Appender {
  const attempts = Math.max(1, options.attempts ?? 3);
  const { appName, userId, sessionId } = key;
  let handle: Promise<Session> | undefined;
  const load = (): Promise<Session> => {
    const loading = store.getSession({ appName, userId, sessionId, config: { numRecentEvents: 0 } }).then((session) => {
      if (session) return session;
      throw new SessionNotFoundError(`Session ${sessionId} not found for appendEvent (an appender's first load)`);
    });
    // A failed load is not remembered: the next call reads again.
    loading.catch(() => {
      if (handle === loading) handle = undefined;
    });
    handle = loading;
    return loading;
  };

  return async (input) => {
    for (let attempt = 1; ; attempt++) {
      const current = handle ?? load();
      const session = await current;
      const built = typeof input === 'function' ? input(session) : input;
      const events = Array.isArray(built) ? built : [built];
      try {
        // One bad event must not leave the others stored without it, nor a stale session some of them.
        const stored = store.appendEvents
          ? await store.appendEvents({ session, events })
          : await Promise.all(events.map((event) => store.appendEvent({ session, event })));
        // The handle holds state, not history: what this tab appends must not pile up in it.
        session.events = [];
        return stored;
      } catch (error) {
        if (!(error instanceof StaleSessionError) || attempt >= attempts) throw error;
        // Concurrent calls share one re-read.
        if (handle === current) handle = undefined;
      }
    }
  };
}
