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
import { type Db, handled, type Store, type Tx } from '../database/idb/index.js';
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
type Scopes = { app: boolean; user: boolean };

/**
 * Issues a group's reads, all up front so they pipeline, then its writes. No
 * await on anything but IndexedDB, or the transaction commits half-way.
 */
async function writeGroup(
  tx: GroupTx,
  batches: AppendBatch[],
  scopes: Scopes[],
  options: GroupOptions,
): Promise<GroupResult[]> {
  const group = new GroupWrite(tx, batches, scopes, options);
  group.readAll();
  // Sessions whose remembered record was trusted are written before their record is read back.
  const early = batches.map((b, i) => (group.trusted(i) ? group.write(b, group.recordOf(i)) : undefined));
  await group.confirmRemembered();
  await group.settleReads();
  const written = batches.map((b, i) => early[i] ?? group.write(b, group.recordOf(i)));
  group.putShared();
  await tx.done;
  return written;
}

/** One group's reads and writes, in the transaction `tx`. */
class GroupWrite {
  private readonly sessions: Store<StoreSchema['sessions']>;
  private readonly events: Store<StoreSchema['events']>;
  private readonly byId: ReturnType<Store<StoreSchema['events']>['index']>;
  private readonly keys: string[];
  /** Stored positions of event ids (an event whose id is stored replaces it in place). */
  private readonly existing = new Map<string, Promise<[string, number] | undefined>>();
  /** Per session key: its record as the group sees it (remembered, then read). */
  private readonly current = new Map<string, SessionRecord | undefined>();
  /** Per session key whose remembered record is trusted: the revision it must still be stored at. */
  private readonly expected = new Map<string, SessionRecord['revision']>();
  private readonly records = new Map<string, Promise<SessionRecord | undefined>>();
  private readonly apps = new Map<string, Promise<AppRecord | undefined>>();
  private readonly users = new Map<string, Promise<UserRecord | undefined>>();
  private readonly seqOf = new Map<string, number>();
  private readonly appRecords = new Map<string, AppRecord>();
  private readonly userRecords = new Map<string, UserRecord>();
  private readonly dirtyApps = new Set<string>();
  private readonly dirtyUsers = new Set<string>();

  constructor(
    private readonly tx: GroupTx,
    private readonly batches: AppendBatch[],
    private readonly scopes: Scopes[],
    private readonly options: GroupOptions,
  ) {
    this.sessions = tx.objectStore('sessions');
    this.events = tx.objectStore('events');
    this.byId = this.events.index('byId');
    this.keys = batches.map((b) => keyString(sessionKey(b)));
    this.trustRemembered();
  }

  /**
   * Sessions written before their record is read: one batch in the group, a ref
   * matching the remembered record, no shared scope to read.
   */
  private trustRemembered(): void {
    const batchesOf = new Map<string, number>();
    for (const k of this.keys) batchesOf.set(k, (batchesOf.get(k) ?? 0) + 1);
    this.batches.forEach((b, i) => {
      const k = this.keys[i] as string;
      const rec = b.ref && this.options.remembered?.(b.ref.uid);
      const writes = this.scopes[i] as Scopes;
      if (!rec || !b.ref || batchesOf.get(k) !== 1 || writes.app || writes.user) return;
      if (rec.revision !== b.ref.revision || keyString([rec.appName, rec.userId, rec.id]) !== k) return;
      this.current.set(k, rec);
      this.expected.set(k, rec.revision);
    });
  }

  trusted(i: number): boolean {
    return this.expected.has(this.keys[i] as string);
  }

  recordOf(i: number): SessionRecord | undefined {
    return this.current.get(this.keys[i] as string);
  }

  private lookUpIds(uid: string, b: AppendBatch): void {
    if (this.options.blind) return;
    for (const e of b.events) {
      const k = keyString([uid, e.id]);
      if (!this.existing.has(k)) this.existing.set(k, handled(this.byId.getKey([uid, e.id])));
    }
  }

  /**
   * Issues every read of the first round. A batch that knows its session's uid
   * has its ids looked up in it too: if the stored uid turns out different, the
   * batch is stale and the lookups unused.
   */
  readAll(): void {
    this.batches.forEach((b, i) => {
      const k = this.keys[i] as string;
      if (!this.records.has(k)) this.records.set(k, handled(this.sessions.get(sessionKey(b))));
      const writes = this.scopes[i] as Scopes;
      if (writes.app && !this.apps.has(b.appName)) {
        this.apps.set(b.appName, handled(this.tx.objectStore('appState').get(b.appName)));
      }
      const uk = keyString([b.appName, b.userId]);
      if (writes.user && !this.users.has(uk)) {
        this.users.set(uk, handled(this.tx.objectStore('userState').get([b.appName, b.userId])));
      }
      if (b.ref) this.lookUpIds(b.ref.uid, b);
    });
  }

  /** Takes the records read; a trusted remembered record must match the stored one, or the group is written again. */
  async confirmRemembered(): Promise<void> {
    for (const [k, p] of this.records) {
      const stored = await p;
      if (!this.expected.has(k)) {
        this.current.set(k, stored);
        continue;
      }
      const rec = this.current.get(k) as SessionRecord;
      if (stored?.uid !== rec.uid || stored.revision !== this.expected.get(k)) {
        throw new RememberedRecordStale(`the remembered record of session ${k} is older than the stored one`);
      }
    }
  }

  /** The second round: ids of batches that did not know their uid, then every lookup and shared record. */
  async settleReads(): Promise<void> {
    this.batches.forEach((b, i) => {
      const rec = this.recordOf(i);
      if (rec && !b.ref) this.lookUpIds(rec.uid, b);
    });
    for (const [k, p] of this.existing) {
      const found = await p;
      if (found) this.seqOf.set(k, found[1]);
    }
    for (const [name, p] of this.apps) {
      this.appRecords.set(name, (await p) ?? { appName: name, state: {}, sessionCount: 0 });
    }
    for (const [k, p] of this.users) {
      const [appName, userId] = JSON.parse(k) as [string, string];
      this.userRecords.set(k, (await p) ?? { appName, userId, state: {}, sessionCount: 0 });
    }
  }

  /** Writes one batch's events and session record, or says why it cannot (unknown or stale session). */
  write(b: AppendBatch, rec: SessionRecord | undefined): GroupResult {
    const refused = refusalOf(b, rec);
    if (refused || !rec) return { error: refused as Error };
    const userKey = keyString([b.appName, b.userId]);
    const results: (WireError | null)[] = [];
    const storedIds: string[] = [];
    const wrote = { app: false, user: false };
    for (const event of b.events) {
      if (!this.putEvent(rec, event, results)) continue;
      const scoped = splitDelta(event.actions?.stateDelta);
      if (!isEmpty(scoped.session)) applyDelta(rec.state, scoped.session);
      if (!isEmpty(scoped.app)) {
        applyDelta((this.appRecords.get(b.appName) as AppRecord).state, scoped.app);
        this.dirtyApps.add(b.appName);
        wrote.app = true;
      }
      if (!isEmpty(scoped.user)) {
        applyDelta((this.userRecords.get(userKey) as UserRecord).state, scoped.user);
        this.dirtyUsers.add(userKey);
        wrote.user = true;
      }
      results.push(null);
      storedIds.push(event.id);
    }
    if (storedIds.length > 0) this.sessions.put(rec).catch(ignore);
    const outcome: AppendOutcome = {
      ref: { uid: rec.uid, revision: rec.revision },
      lastUpdateTime: rec.lastUpdateTime,
      results,
    };
    if (storedIds.length === 0) return { outcome, record: rec };
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
    return { outcome, change, record: rec };
  }

  /**
   * Puts `event` at its place (its stored one when its id is known, else the
   * next) and advances `rec`; `false`, with its error in `results`, for a
   * value the structured clone rejects: it fails alone, the rest of the group goes on.
   */
  private putEvent(rec: SessionRecord, event: Event, results: (WireError | null)[]): boolean {
    const idKey = keyString([rec.uid, event.id]);
    const known = this.seqOf.get(idKey);
    const seq = known ?? rec.nextSeq;
    try {
      this.events.put(eventRecord(rec.uid, seq, storable(event))).catch(ignore);
    } catch (error) {
      results.push(toWireError(normalizeStorageError(error)));
      return false;
    }
    if (known === undefined) {
      this.seqOf.set(idKey, seq);
      rec.nextSeq++;
      rec.eventCount++;
    }
    rec.revision++;
    rec.lastUpdateTime = event.timestamp;
    return true;
  }

  /** Writes back the app and user records the group changed. */
  putShared(): void {
    for (const name of this.dirtyApps) {
      this.tx
        .objectStore('appState')
        .put(this.appRecords.get(name) as AppRecord)
        .catch(ignore);
    }
    for (const k of this.dirtyUsers) {
      this.tx
        .objectStore('userState')
        .put(this.userRecords.get(k) as UserRecord)
        .catch(ignore);
    }
  }
}

/** Why `b` cannot be appended to the stored `rec`: no such session, or a stale copy of it. */
function refusalOf(b: AppendBatch, rec: SessionRecord | undefined): Error | undefined {
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
