/**
 * Erasures across devices, on the device's side. An erase here of events the server holds is
 * pending while the session's `erasures` count is past its mark's `syncedErasures` (no write on the
 * erase path: it is derived, as pending events are); a round then sends the erased events of the
 * synced prefix (all of them: the server passes over those it erased before) and records the count
 * it sent. An event erased before its push goes erased with the push. Each erasure carries the state
 * delta the erased event kept (the writes still in effect when it was erased here). An erasure the
 * server reports is applied by the store's own `erase`, with the original time and the server's
 * kept delta, so every copy reads the same (one erased here too, at another time or keeping other
 * writes, takes the server's form), and is not sent back.
 */

import { jsonEqual } from '../core/json-equal.js';
import type { StoreChange } from '../database/changes.js';
import { bound, type Db } from '../database/idb/index.js';
import { eventOf, eventRecord, type SessionRecord, type StoreSchema } from '../database/records/index.js';
import type { SyncMark } from '../database/records/sync.js';
import { erasedAt, erasedForm } from '../sessions/erased.js';
import type { Erasure } from './wire.js';

/** A session's key: app, user, session id (as local.ts has it). */
type Key = [string, string, string];

/** Whether `record` has erasures its mark's incarnation has not sent. */
export const owesErasures = (record: SessionRecord, mark: SyncMark): boolean =>
  (record.erasures ?? 0) > (mark.syncedErasures ?? 0);

/**
 * Marks `mark` as owing the server an erasure of `record` (an erased event joined the synced prefix
 * whose server copy may still hold its content: a push of it before its erase, answered late).
 */
export function oweErasure(mark: SyncMark, record: SessionRecord): void {
  mark.syncedErasures = Math.min(mark.syncedErasures ?? 0, (record.erasures ?? 0) - 1);
}

/** The erased events of the session's synced prefix, and the `erasures` count they answer for. */
export async function erasuresToSend(
  db: Db<StoreSchema>,
  key: Key,
): Promise<{ uid: string; count: number; erasures: Erasure[] } | undefined> {
  const tx = db.transaction(['sessions', 'events', 'syncSessions'], 'readonly');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  if (!record || !mark || mark.uid !== record.uid || !owesErasures(record, mark)) return undefined;
  const synced =
    mark.syncedNext === 0
      ? []
      : await tx.objectStore('events').getAll(bound([record.uid, 0], [record.uid, mark.syncedNext], false, true));
  const erasures: Erasure[] = [];
  for (const r of synced) {
    const event = eventOf(r);
    const at = erasedAt(event);
    if (at !== undefined) erasures.push({ id: r.id, at, stateDelta: event.actions?.stateDelta ?? {} });
  }
  return { uid: record.uid, count: record.erasures ?? 0, erasures };
}

const utf8 = new TextEncoder();

/**
 * `erasures` in the pieces the requests carry: at most `maxCount` each, and a body of at most
 * `maxBytes` of UTF-8 (one larger alone goes alone, and the server refuses it for its session).
 */
export function erasureBatches(erasures: Erasure[], maxCount: number, maxBytes: number): Erasure[][] {
  const batches: Erasure[][] = [];
  const empty = utf8.encode(JSON.stringify({ erasures: [] })).length;
  let batch: Erasure[] = [];
  let size = empty;
  for (const erasure of erasures) {
    const own = utf8.encode(JSON.stringify(erasure)).length + 1;
    if (batch.length > 0 && (batch.length === maxCount || size + own > maxBytes)) {
      batches.push(batch);
      batch = [];
      size = empty;
    }
    batch.push(erasure);
    size += own;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** After the server took the erasures sent for `count`: the mark of incarnation `uid` records it. */
export async function erasuresSent(db: Db<StoreSchema>, key: Key, uid: string, count: number): Promise<void> {
  const tx = db.transaction(['syncSessions'], 'readwrite');
  const mark = await tx.objectStore('syncSessions').get(key);
  if (mark?.uid === uid && (mark.syncedErasures ?? 0) < count) {
    tx.objectStore('syncSessions').put({ ...mark, syncedErasures: count });
  }
  await tx.done;
}

/** The session's `erasures` count now (0 for a session it lacks). */
export async function erasureCount(db: Db<StoreSchema>, key: Key): Promise<number> {
  const record = await db.transaction(['sessions'], 'readonly').objectStore('sessions').get(key);
  return record?.erasures ?? 0;
}

/**
 * After this device applied an erasure from the server, which moved the session's count from
 * `from` by one: when nothing was owed before it (the mark had sent `from`), nothing is owed now;
 * the server's own erasure is not sent back. Any other count (an erase here meanwhile) leaves it owed.
 */
export async function erasureApplied(db: Db<StoreSchema>, key: Key, from: number): Promise<void> {
  const tx = db.transaction(['sessions', 'syncSessions'], 'readwrite');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  if (
    record &&
    mark?.uid === record.uid &&
    (record.erasures ?? 0) === from + 1 &&
    (mark.syncedErasures ?? 0) === from
  ) {
    tx.objectStore('syncSessions').put({ ...mark, syncedErasures: from + 1 });
  }
  await tx.done;
}

/**
 * Sorts the server's `erasures` of the session by what this device holds, in one transaction:
 * events it erased too, at another time or keeping other writes (two devices erased one event; the
 * server kept the first erasure it took), take the server's form: its time in their marks and its
 * kept delta, so every copy reads the same (`changes` announces them); events it holds unerased are
 * left `toApply` (by the store's `erase`, whose hooks clear memory and search); the rest it lacks.
 */
export async function sortErasures(
  db: Db<StoreSchema>,
  key: Key,
  erasures: Erasure[],
): Promise<{ changes: StoreChange[]; toApply: Erasure[] }> {
  const tx = db.transaction(['sessions', 'events'], 'readwrite');
  const record = await tx.objectStore('sessions').get(key);
  if (!record) {
    await tx.done;
    return { changes: [], toApply: [] };
  }
  const events = tx.objectStore('events');
  const found = await Promise.all(erasures.map((e) => events.index('byId').get([record.uid, e.id])));
  const aligned: string[] = [];
  const toApply: Erasure[] = [];
  erasures.forEach((erasure, i) => {
    const r = found[i];
    if (!r) return;
    const event = eventOf(r);
    const here = erasedAt(event);
    const kept = erasure.stateDelta ?? {};
    if (here === undefined) toApply.push(erasure);
    else if (here !== erasure.at || (event.actions && !jsonEqual(event.actions.stateDelta ?? {}, kept))) {
      events.put(eventRecord(r.uid, r.seq, erasedForm(event, erasure.at, kept)));
      aligned.push(erasure.id);
    }
  });
  await tx.done;
  if (aligned.length === 0) return { changes: [], toApply };
  const { appName, userId, id: sessionId, revision, lastUpdateTime } = record;
  const change: StoreChange = {
    type: 'erased',
    appName,
    userId,
    sessionId,
    revision,
    lastUpdateTime,
    eventIds: aligned,
    scopes: { app: false, user: false },
  };
  return { changes: [change], toApply };
}
