/**
 * Where a push's events go: after the session's head, each stamped strictly later than the one
 * before it (ADK's readers order by timestamp, so they see the order the devices see), as the
 * rows of ADK's events table and of the change log, which the push writes in one commit.
 */
import type { Event as AdkEvent } from '@google/adk';
import type { Event } from '../src/types.js';
import type { NewRow } from './log.js';

/** ADK's rows and the log's for `events` past `head`, each stamped strictly after its predecessor. */
export function stamp(sessionId: string, head: { pos: number; ts: number }, events: Event[]) {
  let ts = head.ts;
  let pos = head.pos;
  const rows: NewRow[] = [];
  const forAdk: AdkEvent[] = [];
  for (const event of events) {
    ts = Math.max(Date.now(), ts + 1);
    pos += 1;
    const stamped = { ...event, timestamp: ts };
    // ADK's events table needs an invocation id; the devices keep the event as they sent it.
    forAdk.push({ ...stamped, invocationId: stamped.invocationId ?? '' } as unknown as AdkEvent);
    rows.push({ kind: 'event', sessionId, pos, eventId: event.id, ts, data: stamped });
  }
  return { rows, forAdk };
}
