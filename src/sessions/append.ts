/**
 * Group commit: every append batch waiting at one moment, for any sessions, is
 * written in a single readwrite transaction. IndexedDB's cost is per
 * transaction, not per record, so this is where append throughput comes from.
 *
 * Correctness lives inside the transaction, not in any in-memory queue: each
 * batch re-reads its session record, checks the revision (the stale check),
 * assigns sequence numbers from the record's counter and writes its events, the
 * state keys their deltas set (not the state kept) and the record together. IndexedDB serialises overlapping
 * readwrite transactions across tabs, so this holds for every tab and instance.
 */
import {
  normalizeStorageError,
  SessionNotFoundError,
  StaleSessionError,
  toWireError,
  type WireError,
} from '../core/errors.js';
import { hasTempKeys, isEmpty, splitDelta, withoutTemp } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { type Db, handled, type Tx } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import { removeDraft } from '../database/records/drafts.js';
import { eventRecord, type SessionRecord, type StoreName, type StoreSchema } from '../database/records/index.js';
import { appScope, userScope, writeSessionState, writeState } from '../database/records/state.js';
import type { Durability, Event } from '../types.js';
import type { AppendBatch, AppendOutcome } from './protocol.js';

export interface GroupResult {
  outcome?: AppendOutcome;
  error?: Error;
  change?: StoreChange;
  /** The session record as committed, for the engine to remember. */
  record?: SessionRecord;
}

/** An acknowledged append batch, and the change notice it makes once its group has committed. */
export interface Appended {
  outcome: AppendOutcome;
  change: StoreChange | undefined;
}

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

const strictness: Record<Durability, number> = { relaxed: 0, default: 1, strict: 2 };

/** The strictest durability the batches ask for (`fallback` for those that ask none): a group commits so. */
export function strictestOf(batches: readonly AppendBatch[], fallback: Durability): IDBTransactionDurability {
  let chosen: Durability = 'relaxed';
  for (const b of batches) {
    const d = b.durability ?? fallback;
    if (strictness[d] > strictness[chosen]) chosen = d;
  }
  return chosen;
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
  // A transaction locks only the stores it names: appends that change no state (most of an
  // agent's) leave the state store out, so they neither wait for nor hold it.
  const names: StoreName[] = ['sessions', 'events'];
  if (batches.some(writesState)) names.push('state');
  if (batches.some((b) => b.finishesDraft !== undefined)) names.push('drafts', 'draftChunks');
  const tx = db.transaction(names, 'readwrite', { durability });
  try {
    return await writeGroup(tx, batches, blind, remembered);
  } catch (error) {
    // Nothing of a group that failed half-way may commit; and the caller needs the cause
    // (a refused duplicate id, say), not the AbortError of a read the abort cut short.
    await tx.abandon();
    throw tx.error ?? error;
  }
}

type GroupTx = Tx<StoreSchema, StoreName>;
type Lookups = Map<string, Promise<[string, number] | undefined>>;

const writesState = (b: AppendBatch): boolean => b.events.some((e) => !isEmpty(e.actions?.stateDelta ?? {}));

/** Issues the lookups of where `b`'s event ids are stored in incarnation `uid` (an event whose id is stored replaces it in place). */
function lookUpIds(tx: GroupTx, lookups: Lookups, uid: string, b: AppendBatch): void {
  const byId = tx.objectStore('events').index('byId');
  for (const e of b.events) {
    const k = keyString([uid, e.id]);
    if (!lookups.has(k)) lookups.set(k, handled(byId.getKey([uid, e.id])));
  }
}

/**
 * The session records that can be written before their read: the engine remembers
 * the record, the batch's ref matches it, and no other batch of the group is for
 * that session. Keyed like `keys`.
 */
function rememberedRecords(
  batches: AppendBatch[],
  keys: string[],
  remembered: GroupOptions['remembered'],
): Map<string, SessionRecord> {
  const count = new Map<string, number>();
  for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  const found = new Map<string, SessionRecord>();
  batches.forEach((b, i) => {
    const k = keys[i] as string;
    const rec = b.ref && remembered?.(b.ref.uid);
    if (!rec || !b.ref || count.get(k) !== 1 || rec.revision !== b.ref.revision) return;
    if (keyString([rec.appName, rec.userId, rec.id]) === k) found.set(k, rec);
  });
  return found;
}

/** Why `b` cannot be written on `rec`, if it cannot: an unknown session, or a stale copy of it. */
function refusal(b: AppendBatch, rec: SessionRecord | undefined): Error | undefined {
  if (!rec) {
    // ADK's sentence first (`DatabaseSessionService`'s words), so code matching ADK's message matches ours.
    return new SessionNotFoundError(
      `Session ${b.sessionId} not found for appendEvent (app "${b.appName}", user "${b.userId}")`,
    );
  }
  const stale = b.ref
    ? b.ref.uid !== rec.uid || b.ref.revision !== rec.revision
    : rec.lastUpdateTime > b.lastUpdateTime;
  if (!stale) return undefined;
  return new StaleSessionError(
    `session "${b.sessionId}" was modified in storage after this copy was loaded (stored revision ${rec.revision}); reload it with getSession and retry`,
  );
}

/**
 * Writes one event of `b` on `rec` (changed in place): the event, the state keys
 * its delta sets in each scope (light session keys ride in `rec`), nothing else. Returns which shared scopes it
 * wrote; throws what a put throws (a value the structured clone rejects).
 */
function writeEvent(tx: GroupTx, b: AppendBatch, rec: SessionRecord, event: Event, seqOf: Map<string, number>) {
  const idKey = keyString([rec.uid, event.id]);
  const known = seqOf.get(idKey);
  tx.objectStore('events').put(eventRecord(rec.uid, known ?? rec.nextSeq, storable(event)));
  const scoped = splitDelta(event.actions?.stateDelta);
  // Only a group that changes state has the state store in its transaction.
  const state = () => tx.objectStore('state');
  if (!isEmpty(scoped.session)) writeSessionState(state(), rec, scoped.session);
  if (!isEmpty(scoped.app)) writeState(state(), appScope(b.appName), scoped.app);
  if (!isEmpty(scoped.user)) writeState(state(), userScope(b.appName, b.userId), scoped.user);
  if (known === undefined) {
    seqOf.set(idKey, rec.nextSeq);
    rec.nextSeq++;
    rec.eventCount++;
  }
  rec.revision++;
  rec.lastUpdateTime = event.timestamp;
  return { app: !isEmpty(scoped.app), user: !isEmpty(scoped.user) };
}

/** Writes batch `b` on its session's record `rec` (changed in place); its result. A rewind writes its event so too. */
export function writeBatch(
  tx: GroupTx,
  b: AppendBatch,
  rec: SessionRecord | undefined,
  seqOf: Map<string, number>,
): GroupResult {
  const error = refusal(b, rec);
  if (error || !rec) return { error };
  const results: (WireError | null)[] = [];
  const eventIds: string[] = [];
  const scopes = { app: false, user: false };
  for (const event of b.events) {
    try {
      const wrote = writeEvent(tx, b, rec, event, seqOf);
      scopes.app ||= wrote.app;
      scopes.user ||= wrote.user;
    } catch (error) {
      // A value the structured clone rejects fails alone (as InvalidInputError); the rest of the group goes on.
      results.push(toWireError(normalizeStorageError(error)));
      continue;
    }
    results.push(null);
    eventIds.push(event.id);
  }
  const outcome: AppendOutcome = {
    ref: { uid: rec.uid, revision: rec.revision },
    lastUpdateTime: rec.lastUpdateTime,
    results,
  };
  if (eventIds.length === 0) return { outcome, record: rec };
  tx.objectStore('sessions').put(rec);
  const { appName, userId, sessionId, finishesDraft } = b;
  if (finishesDraft !== undefined) removeDraft(tx, [appName, userId, sessionId, finishesDraft]);
  const { revision, lastUpdateTime } = rec;
  const change: StoreChange = {
    type: 'appended',
    appName,
    userId,
    sessionId,
    revision,
    lastUpdateTime,
    eventIds,
    scopes,
    ...(finishesDraft === undefined ? {} : { draftId: finishesDraft }),
  };
  return { outcome, change, record: rec };
}

async function writeGroup(
  tx: GroupTx,
  batches: AppendBatch[],
  blind: boolean,
  remembered: GroupOptions['remembered'],
): Promise<GroupResult[]> {
  const keys = batches.map((b) => keyString(sessionKey(b)));
  const early = rememberedRecords(batches, keys, remembered);
  const lookups: Lookups = new Map();
  const seqOf = new Map<string, number>();

  // Issue every read up front so they pipeline; no await on anything but IndexedDB below.
  // A batch that knows its session's uid has its ids looked up in this first round
  // too: if the stored uid turns out different, the batch is stale and the lookups unused.
  const reads = new Map<string, Promise<SessionRecord | undefined>>();
  batches.forEach((b, i) => {
    const k = keys[i] as string;
    if (!reads.has(k)) reads.set(k, handled(tx.objectStore('sessions').get(sessionKey(b))));
    if (b.ref && !blind) lookUpIds(tx, lookups, b.ref.uid, b);
  });
  // Written at once: should the stored record differ, the transaction aborts before anything commits.
  const results = batches.map((b, i) => {
    const rec = early.get(keys[i] as string);
    return rec && writeBatch(tx, b, rec, seqOf);
  });

  const current = new Map<string, SessionRecord | undefined>();
  for (const [k, p] of reads) {
    const stored = await p;
    const rec = early.get(k);
    if (!rec) current.set(k, stored);
    else if (
      stored?.uid !== rec.uid ||
      stored.revision !== (batches[keys.indexOf(k)] as AppendBatch).ref?.revision ||
      // An erase moved `erasures` only: writing the remembered record would undo that.
      stored.erasures !== rec.erasures
    ) {
      throw new RememberedRecordStale();
    }
  }
  // Only batches without a known uid need a second round.
  batches.forEach((b, i) => {
    const rec = current.get(keys[i] as string);
    if (rec && !b.ref && !blind) lookUpIds(tx, lookups, rec.uid, b);
  });
  for (const [k, p] of lookups) {
    const found = await p;
    if (found) seqOf.set(k, found[1]);
  }
  const written = batches.map((b, i) => results[i] ?? writeBatch(tx, b, current.get(keys[i] as string), seqOf));
  await tx.done;
  return written;
}
