/**
 * Sealing an interrupted turn (`sealInterrupted`): when a session's last invocation holds
 * function calls no response answers (a tab closed while a tool ran), the store appends, in one
 * all-or-nothing batch, the events adk-js's `buildAbortEvents` (events/abort_events.ts on its main
 * branch) would: one per author and branch that issued dangling calls, authored as that issuer,
 * whose content answers each call with `{ error: 'Invocation was aborted by client.' }`, marked
 * `errorCode: 'INVOCATION_ABORTED'`. Nothing dangling, nothing appended: sealing twice appends
 * nothing the second time. The batch names the revision it read, so a seal racing another writer
 * (another tab sealing too) is refused as stale and read again, never appended twice.
 * Worker-side only: the page forwards the call.
 */
import { fromWireError, type SessionStoreError, type WireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Database } from '../database/database.js';
import { bound } from '../database/idb/index.js';
import { eventOf } from '../database/records/index.js';
import type { Event, SessionKey } from '../types.js';
import type { AppendBatch, AppendOutcome } from './protocol.js';

/** What sealing needs of the session engine. */
export interface SealingEngine {
  readonly database: Database;
  appendEvents(batch: AppendBatch): Promise<AppendOutcome>;
}

/** adk-js's `INVOCATION_ABORTED`: the `errorCode` of every event that seals an interrupted turn. */
export const INVOCATION_ABORTED = 'INVOCATION_ABORTED';
/** adk-js's `ABORT_MESSAGE`: the error each sealed call is answered with. */
export const ABORT_MESSAGE = 'Invocation was aborted by client.';

/** How often a seal that lost a race to another writer reads the session again. */
const ATTEMPTS = 5;

type Call = NonNullable<NonNullable<NonNullable<Event['content']>['parts']>[number]['functionCall']>;

/**
 * The events that seal `events` (one invocation's, in append order): its calls with an `id` that
 * no response among them answers, grouped by the issuing event's author and branch, in order.
 */
export function abortEventsFor(events: readonly Event[], invocationId: string, timestamp: number): Event[] {
  const answered = new Set<string>();
  for (const e of events) {
    for (const p of e.content?.parts ?? []) if (p.functionResponse?.id) answered.add(p.functionResponse.id);
  }
  const groups = new Map<string, { author?: string; branch?: string; calls: Call[] }>();
  for (const e of events) {
    for (const p of e.content?.parts ?? []) {
      const call = p.functionCall;
      if (!call?.id || answered.has(call.id)) continue;
      answered.add(call.id);
      const key = JSON.stringify([e.author ?? null, e.branch ?? null]);
      let group = groups.get(key);
      if (!group) {
        group = {
          ...(e.author !== undefined && { author: e.author }),
          ...(e.branch !== undefined && { branch: e.branch }),
          calls: [],
        };
        groups.set(key, group);
      }
      group.calls.push(call);
    }
  }
  return [...groups.values()].map(({ calls, ...issuer }) => ({
    id: newId(),
    invocationId,
    ...issuer,
    timestamp,
    content: {
      role: 'user',
      parts: calls.map((c) => ({
        functionResponse: {
          id: c.id,
          ...(c.name !== undefined && { name: c.name }),
          response: { error: ABORT_MESSAGE },
        },
      })),
    },
    actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
    errorCode: INVOCATION_ABORTED,
    errorMessage: ABORT_MESSAGE,
  }));
}

/** Most events without an invocation (chat UI messages, ADK's compaction events) the walk back steps over. */
const UNOWNED_LIMIT = 256;

/**
 * The session's record and its last invocation's events: the run of last events sharing the
 * newest non-empty `invocationId`. Events with none (adk-js stamps its compaction events with `''`)
 * are stepped over, not taken as the invocation's end.
 */
function readLastInvocation(engine: SealingEngine, key: SessionKey) {
  return engine.database.transact(async (db) => {
    const tx = db.transaction(['sessions', 'events'], 'readonly');
    const record = await tx.objectStore('sessions').get([key.appName, key.userId, key.sessionId]);
    if (!record) return undefined;
    const events: Event[] = [];
    let invocationId: string | undefined;
    let unowned = 0;
    let cursor = await tx
      .objectStore('events')
      .openCursor(bound([record.uid, 0], [record.uid, Number.POSITIVE_INFINITY]), 'prev');
    while (cursor) {
      const event = eventOf(cursor.value);
      if (!event.invocationId) {
        if (++unowned > UNOWNED_LIMIT) break;
      } else if (invocationId === undefined || event.invocationId === invocationId) {
        invocationId = event.invocationId;
        events.unshift(event);
      } else break;
      cursor = await cursor.continue();
    }
    return { record, events, invocationId };
  });
}

/** Seals the session's last invocation; resolves the events appended (none when nothing dangles or no session). */
export async function sealInterrupted(engine: SealingEngine, key: SessionKey): Promise<Event[]> {
  for (let attempt = 1; ; attempt++) {
    const read = await readLastInvocation(engine, key);
    if (!read?.invocationId) return [];
    const newest = read.events.at(-1)?.timestamp ?? 0;
    const events = abortEventsFor(
      read.events,
      read.invocationId,
      Math.max(Date.now(), newest, read.record.lastUpdateTime),
    );
    if (events.length === 0) return [];
    const { uid, revision, lastUpdateTime } = read.record;
    let failed: { code: string } | null | undefined;
    try {
      const outcome = await engine.appendEvents({
        ...key,
        ref: { uid, revision },
        lastUpdateTime,
        events,
        allOrNothing: true,
      });
      failed = outcome.results.find((r) => r !== null);
      if (failed) failed = fromWireError(failed as WireError) as SessionStoreError;
    } catch (error) {
      failed = error as SessionStoreError;
    }
    if (!failed) return events;
    // Another writer got there first (another tab sealing too): read again, and seal what is left.
    if (failed.code !== 'STALE_SESSION' || attempt === ATTEMPTS) throw failed;
  }
}
