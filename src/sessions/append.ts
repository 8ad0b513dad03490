/**
 * Group commit: every append batch waiting at one moment, for any sessions, is
 * written in a single readwrite transaction. IndexedDB's cost is per
 * transaction, not per record, so this is where append throughput comes from.
 *
 * Correctness lives inside the transaction, not in any in-memory queue: each
 * batch re-reads its session record, checks the revision (the stale check),
 * assigns sequence numbers from the record's counter and writes events, state
 * scopes and the session record together. IndexedDB serialises overlapping
 * readwrite transactions across tabs, so this holds for every tab and instance.
 */
import {
  normalizeStorageError,
  SessionNotFoundError,
  StaleSessionError,
  toWireError,
  type WireError,
} from '../core/errors.js';
import { APP_PREFIX, applyDelta, hasTempKeys, isEmpty, splitDelta, USER_PREFIX, withoutTemp } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { type Db, handled, type Tx } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import {
  type AppRecord,
  eventRecord,
  type SessionRecord,
  type StoreName,
  type StoreSchema,
  type UserRecord,
} from '../database/records/index.js';
import type { Event } from '../types.js';
import type { AppendBatch, AppendOutcome } from './protocol.js';

export interface GroupResult {
  outcome?: AppendOutcome;
  error?: Error;
  change?: StoreChange;
  /** The session record as committed, for the engine to remember. */
  record?: SessionRecord;
}

/** Request promises are settled through `tx.done`; their own rejections on abort are expected. */
const ignore = (): void => {};
const sessionKey = (b: AppendBatch): [string, string, string] => [b.appName, b.userId, b.sessionId];

/** The stored form of an event: `temp:` keys never reach the database. */
export function storable(event: Event): Event {
  const delta = event.actions?.stateDelta;
  if (!delta || !hasTempKeys(delta)) return event;
  return {
    ...event,
    actions: { ...event.actions, stateDelta: withoutTemp(delta) },
  };
}

/** Which shared scopes a batch's events write: only those records are read. */
function sharedWrites(b: AppendBatch): { app: boolean; user: boolean } {
  let app = false;
  let user = false;
  for (const e of b.events) {
    const delta = e.actions?.stateDelta;
    if (!delta) continue;
    for (const key of Object.keys(delta)) {
      if (key.startsWith(APP_PREFIX)) app = true;
      else if (key.startsWith(USER_PREFIX)) user = true;
    }
  }
  return { app, user };
}

/** True if `error` is a unique key or index refusing a record written blind (an event or session id already stored). */
export function isDuplicateId(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConstraintError';
}

/** A remembered session record turned out older than the stored one: the group must go again without it. */
export class RememberedRecordStale extends Error {
  override readonly name = 'RememberedRecordStale';
}

export interface GroupOptions {
  /**
   * New events are written without first looking up whether their ids are
   * stored, which saves a read per event. An id that is stored already makes
   * the unique index refuse the write and the whole transaction abort (see
   * `isDuplicateId`); the caller then commits the group again without `blind`,
   * where such an event replaces the stored one in place.
   */
  blind: boolean;
  /**
   * The session record this engine last committed for a uid, if it remembers
   * it. A batch whose ref matches it is written at once, without waiting for the
   * record's read: the read still happens in the same transaction, and should the
   * stored record differ (another tab appended), the transaction is aborted with
   * `RememberedRecordStale` before anything commits. The record is changed in
   * place: on any failure the caller must forget it.
   */
  remembered?: (uid: string) => SessionRecord | undefined;
}

/**
 * Writes `batches` in one transaction. Resolves with one result per batch: a
 * stale or unknown session fails its own batch only. Must reject (and so fail
 * every batch) if the transaction aborts: then nothing of the group is stored.
 */
export async function commitGroup(
  db: Db<StoreSchema>,
  batches: AppendBatch[],
  durability: IDBTransactionDurability,
  { blind, remembered }: GroupOptions,
): Promise<GroupResult[]> {
  const scopes = batches.map(sharedWrites);
  // A transaction locks only the stores it names: appends that write no shared scope (most of an
  // agent's) leave the state stores out, so they neither wait for nor hold them.
  const names: StoreName[] = ['sessions', 'events'];
  if (scopes.some((s) => s.app)) names.push('appState');
  if (scopes.some((s) => s.user)) names.push('userState');
  const tx = db.transaction(names, 'readwrite', { durability });
  try {
    return await writeGroup(tx, batches, scopes, { blind, remembered });
  } catch (error) {
    // Nothing of a group that failed half-way may commit; and the caller needs the cause
    // (a refused duplicate id, say), not the AbortError of a read the abort cut short.
    try {
      tx.abort();
    } catch {
      // Already aborted.
    }
    await tx.done.catch(ignore);
    throw tx.error ?? error;
  }
}

type GroupTx = Tx<StoreSchema, StoreName>;

async function writeGroup(
  tx: GroupTx,
  batches: AppendBatch[],
  scopes: { app: boolean; user: boolean }[],
  { blind, remembered }: GroupOptions,
): Promise<GroupResult[]> {
  const sessions = tx.objectStore('sessions');
  const events = tx.objectStore('events');
  const byId = events.index('byId');

  // Existing positions of event ids (an event whose id is stored replaces it in place).
  const existing = new Map<string, Promise<[string, number] | undefined>>();
  const lookUpIds = (uid: string, b: AppendBatch): void => {
    if (blind) return;
    for (const e of b.events) {
      const k = keyString([uid, e.id]);
      if (!existing.has(k)) existing.set(k, handled(byId.getKey([uid, e.id])));
    }
  };

  const keys = batches.map((b) => keyString(sessionKey(b)));

  // Sessions written before their record is read: one batch in the group, a ref
  // matching the remembered record, no shared scope to read.
  const batchesOf = new Map<string, number>();
  for (const k of keys) batchesOf.set(k, (batchesOf.get(k) ?? 0) + 1);
  const current = new Map<string, SessionRecord | undefined>();
  const expected = new Map<string, SessionRecord['revision']>();
  batches.forEach((b, i) => {
    const k = keys[i] as string;
    const rec = b.ref && remembered?.(b.ref.uid);
    const writes = scopes[i] as { app: boolean; user: boolean };
    if (!rec || !b.ref || batchesOf.get(k) !== 1 || writes.app || writes.user) return;
    if (rec.revision !== b.ref.revision || keyString([rec.appName, rec.userId, rec.id]) !== k) return;
    current.set(k, rec);
    expected.set(k, rec.revision);
  });

  // Issue every read up front so they pipeline; no await on anything but IndexedDB below.
  // A batch that knows its session's uid has its ids looked up in this first round
  // too: if the stored uid turns out different, the batch is stale and the lookups unused.
  const records = new Map<string, Promise<SessionRecord | undefined>>();
  const apps = new Map<string, Promise<AppRecord | undefined>>();
  const users = new Map<string, Promise<UserRecord | undefined>>();
  batches.forEach((b, i) => {
    const k = keys[i] as string;
    if (!records.has(k)) records.set(k, handled(sessions.get(sessionKey(b))));
    const writes = scopes[i] as { app: boolean; user: boolean };
    if (writes.app && !apps.has(b.appName)) apps.set(b.appName, handled(tx.objectStore('appState').get(b.appName)));
    const uk = keyString([b.appName, b.userId]);
    if (writes.user && !users.has(uk)) users.set(uk, handled(tx.objectStore('userState').get([b.appName, b.userId])));
    if (b.ref) lookUpIds(b.ref.uid, b);
  });

  const seqOf = new Map<string, number>();
  const appRecords = new Map<string, AppRecord>();
  const userRecords = new Map<string, UserRecord>();
  const dirtyApps = new Set<string>();
  const dirtyUsers = new Set<string>();

  const write = (b: AppendBatch, rec: SessionRecord | undefined): GroupResult => {
    if (!rec) {
      return {
        // ADK's sentence first (`DatabaseSessionService`'s words), so code matching ADK's message matches ours.
        error: new SessionNotFoundError(
          `Session ${b.sessionId} not found for appendEvent (app "${b.appName}", user "${b.userId}")`,
        ),
      };
    }
    const stale = b.ref
      ? b.ref.uid !== rec.uid || b.ref.revision !== rec.revision
      : rec.lastUpdateTime > b.lastUpdateTime;
    if (stale) {
      return {
        error: new StaleSessionError(
          `session "${b.sessionId}" was modified in storage after this copy was loaded (stored revision ${rec.revision}); reload it with getSession and retry`,
        ),
      };
    }
    const userKey = keyString([b.appName, b.userId]);
    const eventResults: (WireError | null)[] = [];
    const storedIds: string[] = [];
    const wrote = { app: false, user: false };
    for (const event of b.events) {
      const idKey = keyString([rec.uid, event.id]);
      const known = seqOf.get(idKey);
      const seq = known ?? rec.nextSeq;
      try {
        events.put(eventRecord(rec.uid, seq, storable(event))).catch(ignore);
      } catch (error) {
        // A value the structured clone rejects fails alone (as InvalidInputError); the rest of the group goes on.
        eventResults.push(toWireError(normalizeStorageError(error)));
        continue;
      }
      if (known === undefined) {
        seqOf.set(idKey, seq);
        rec.nextSeq++;
        rec.eventCount++;
      }
      rec.revision++;
      rec.lastUpdateTime = event.timestamp;
      const scoped = splitDelta(event.actions?.stateDelta);
      if (!isEmpty(scoped.session)) applyDelta(rec.state, scoped.session);
      if (!isEmpty(scoped.app)) {
        applyDelta((appRecords.get(b.appName) as AppRecord).state, scoped.app);
        dirtyApps.add(b.appName);
        wrote.app = true;
      }
      if (!isEmpty(scoped.user)) {
        applyDelta((userRecords.get(userKey) as UserRecord).state, scoped.user);
        dirtyUsers.add(userKey);
        wrote.user = true;
      }
      eventResults.push(null);
      storedIds.push(event.id);
    }
    if (storedIds.length > 0) sessions.put(rec).catch(ignore);
    const outcome: AppendOutcome = {
      ref: { uid: rec.uid, revision: rec.revision },
      lastUpdateTime: rec.lastUpdateTime,
      results: eventResults,
    };
    const change: StoreChange = {
      type: 'appended',
      appName: b.appName,
      userId: b.userId,
      sessionId: b.sessionId,
      revision: rec.revision,
      lastUpdateTime: rec.lastUpdateTime,
      eventIds: storedIds,
      scopes: wrote,
    };
    return storedIds.length > 0 ? { outcome, change, record: rec } : { outcome, record: rec };
  };

  const results: (GroupResult | undefined)[] = batches.map((b, i) => {
    const k = keys[i] as string;
    return expected.has(k) ? write(b, current.get(k)) : undefined;
  });

  for (const [k, p] of records) {
    const stored = await p;
    if (!expected.has(k)) {
      current.set(k, stored);
      continue;
    }
    const rec = current.get(k) as SessionRecord;
    if (stored?.uid !== rec.uid || stored.revision !== expected.get(k)) {
      throw new RememberedRecordStale(`the remembered record of session ${k} is older than the stored one`);
    }
  }

  // Only batches without a known uid need a second round.
  batches.forEach((b, i) => {
    const rec = current.get(keys[i] as string);
    if (rec && !b.ref) lookUpIds(rec.uid, b);
  });
  for (const [k, p] of existing) {
    const found = await p;
    if (found) seqOf.set(k, found[1]);
  }
  for (const [name, p] of apps) appRecords.set(name, (await p) ?? { appName: name, state: {}, sessionCount: 0 });
  for (const [k, p] of users) {
    const [appName, userId] = JSON.parse(k) as [string, string];
    userRecords.set(k, (await p) ?? { appName, userId, state: {}, sessionCount: 0 });
  }

  const written = batches.map((b, i) => results[i] ?? write(b, current.get(keys[i] as string)));
  for (const name of dirtyApps)
    tx.objectStore('appState')
      .put(appRecords.get(name) as AppRecord)
      .catch(ignore);
  for (const k of dirtyUsers)
    tx.objectStore('userState')
      .put(userRecords.get(k) as UserRecord)
      .catch(ignore);
  await tx.done;
  return written;
}
