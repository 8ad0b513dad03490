/**
 * Catching the change log up with ADK's tables, for writers that reach them around the server
 * (an ADK Runner, ADK's dev UI): what ADK holds and the log does not becomes log rows. The
 * service does it on a user's first use in a process, after `runExclusive`'s turn, and when
 * its periodic comparison (`AdkComparison`) finds the two apart.
 */
import type { DatabaseSessionService } from '@google/adk';
import type { ChangeLog, NewRow, UserKey } from './log.js';

/**
 * How often, at most, a user's log is compared with ADK's tables for writes made around the server
 * (`AdkComparison`: ADK's sessions of the user, and counts where they moved): started by a pull,
 * which does not wait for it, or by an open change stream's timer.
 */
export const RECHECK_MS = 5_000;

/**
 * Rows for the events ADK holds past the log's head of the session (all of
 * them for a session new to the log). ADK's `afterTimestamp` is strict and
 * writers share milliseconds, so it reads from below the head (and below
 * `since`, when the writer started) and drops what the log already holds by id.
 */
export async function discover(
  sessions: DatabaseSessionService,
  user: UserKey,
  log: ChangeLog,
  sessionId: string,
  logged = true,
  since = Infinity,
): Promise<NewRow[]> {
  const head = logged ? await log.head(user, sessionId) : undefined;
  const session = await sessions.getSession({
    ...user,
    sessionId,
    ...(head ? { config: { afterTimestamp: Math.min(head.ts, since) - 1 } } : {}),
  });
  if (!session) return [];
  const known = head
    ? await log.placed(
        user,
        sessionId,
        head,
        session.events.map((e) => e.id),
      )
    : new Map();
  let pos = head?.pos ?? 0;
  return session.events
    .filter((e) => !known.has(e.id) && !e.partial)
    .map((e) => {
      pos += 1;
      return { kind: 'event', sessionId, pos, eventId: e.id, ts: e.timestamp, data: e } satisfies NewRow;
    });
}
