/**
 * The pieces of a sync round that need nothing of the engine: ordering a feed
 * page, packing a push under the server's size cap, telling a refusal of one
 * session from a failure of the round, and counting what is pending.
 */
import { SyncError } from '../core/errors.js';
import { setOwn } from '../core/json.js';
import type { Event } from '../types.js';
import type { PendingScan } from './local.js';
import type { SyncStatus } from './status.js';
import type { Change } from './wire.js';

/** A session the server will not take as it stands; the round goes on without it. */
export class SessionRefused extends Error {
  constructor(
    readonly sessionId: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Answers that refuse one session's request, not the device: the round skips that session. */
export const SESSION_REFUSALS = new Set([400, 403, 413]);
const utf8 = new TextEncoder();

/**
 * A page of the feed in sequence order, each change once. Sequence numbers are
 * dense per user, so a page that does not continue `cursor` without a hole was
 * damaged on the way: it is refused (the round fails and is retried).
 */
export function inOrder(changes: Change[], cursor: number): Change[] {
  const bySeq = new Map<number, Change>();
  for (const c of changes) bySeq.set(c.seq, c);
  const sorted = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  sorted.forEach((c, i) => {
    if (c.seq !== cursor + 1 + i) {
      throw new SyncError(`the change feed skipped from ${cursor + i} to ${c.seq}: delivery damaged`, 'server');
    }
  });
  return sorted;
}

/** The longest prefix of `events` whose push body is at most `maxBytes` of UTF-8. */
export function fitting(after: number, events: Event[], maxBytes: number): Event[] {
  let size = utf8.encode(JSON.stringify({ after, events: [] })).length;
  for (let i = 0; i < events.length; i++) {
    size += utf8.encode(JSON.stringify(events[i])).length + (i > 0 ? 1 : 0);
    if (size > maxBytes) return events.slice(0, i);
  }
  return events;
}

/**
 * Runs one session's request; a refusal of that session (its own oversized
 * event, or the server's 400/403/413 for it) is noted and resolves `undefined`.
 */
export async function refusable<T>(
  sessionId: string,
  refused: SyncStatus['refused'],
  work: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    const refusal =
      error instanceof SessionRefused
        ? error
        : error instanceof SyncError && SESSION_REFUSALS.has(error.status)
          ? new SessionRefused(sessionId, error.message, error.status)
          : undefined;
    if (!refusal) throw error;
    setOwn(refused, sessionId, { message: refusal.message, status: refusal.status });
    return undefined;
  }
}

export function counts(scan: PendingScan): Pick<SyncStatus, 'pending' | 'sessions'> {
  let pending = 0;
  // Session ids are any strings, `__proto__` included: own keys only.
  const sessions: Record<string, number> = {};
  const add = (id: string, n: number) => {
    pending += n;
    setOwn(sessions, id, (Object.hasOwn(sessions, id) ? (sessions[id] as number) : 0) + n);
  };
  for (const m of scan.deletes) add(m.id, 1);
  for (const [id, n] of scan.counts) add(id, n);
  for (const id of scan.erasures) add(id, 1);
  return { pending, sessions };
}
