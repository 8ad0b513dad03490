/**
 * The session engine: the session service in terms of keys and revisions, on a
 * database it does not own (the `Database` hands it transactions and carries its
 * change notices). It trusts its input: callers validate first (the in-thread
 * front does; the worker host does for anything arriving over a port).
 */
import { normalizeStorageError, QuotaExceededError } from '../core/errors.js';
import { GroupQueue, type Settled } from '../core/group-commit.js';
import { newId } from '../core/ids.js';
import { isEmpty, type StateRecord, splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import type { Database } from '../database/database.js';
import { bound, type Db } from '../database/idb/index.js';
import { ALL_STORES, eventOf, type SessionRecord, type StoreSchema } from '../database/records/index.js';
import { appScope, readSessionState, readState, userScope } from '../database/records/state.js';
import type {
  AppStateRequest,
  AppSummary,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListUsersRequest,
  RewindRequest,
  SessionKey,
  UserStateRequest,
  UserSummary,
} from '../types.js';
import {
  type Appended,
  commitGroup,
  type GroupOptions,
  type GroupResult,
  isDuplicateId,
  RememberedRecordStale,
  strictestOf,
} from './append.js';
import { type Created, type CreateOrder, commitCreates } from './create.js';
import { cleanupOnImport, decrementCounts, removeSession } from './delete.js';
import type { ImportExtra } from './import.js';
import { loadCompaction, loadErase, loadImport, loadRewind, loadSeal } from './later.js';
import type {
  AppendBatch,
  AppendOutcome,
  Backend,
  ImportBatch,
  ImportOutcome,
  ListedSessions,
  LoadedSession,
} from './protocol.js';
import {
  loadedAsText,
  type Place,
  pageOf,
  readPage,
  readSessionIn,
  readUsers,
  type SessionRead,
  toLoaded,
} from './reads.js';

/** Most batches one group-commit transaction takes; the rest wait for the next. */
const MAX_GROUP = 512;
/** Most session places an engine remembers for its reads. */
const REMEMBERED_PLACES = 10_000;
/** Most session records an engine remembers for its appends. */
const REMEMBERED_RECORDS = 1_000;
const sessionKeyString = (appName: string, userId: string, sessionId: string): string =>
  `${appName}\u0000${userId}\u0000${sessionId}`;

export class SessionEngine implements Backend {
  private readonly durability: Durability;
  private readonly appends = new GroupQueue<AppendBatch, Appended>(
    {
      write: (batches) => this.writeAppends(batches),
      committed: (batches, results) => this.appendsCommitted(batches, results),
    },
    MAX_GROUP,
  );
  private readonly creates = new GroupQueue<CreateOrder, Created>(
    {
      write: (orders) => this.writeCreates(orders),
      committed: (orders, results) => this.createsCommitted(orders, results),
    },
    MAX_GROUP,
  );
  /** Where each session was last seen, so reads can skip a round trip (see `readSession`). */
  private readonly places = new Map<string, Place>();
  /** The session record last committed per uid, so an append need not wait for its read (see `commitGroup`). */
  private readonly records = new Map<string, SessionRecord>();

  constructor(
    readonly database: Database,
    durability: Durability = 'relaxed',
  ) {
    this.durability = durability;
  }

  private run<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T> {
    return this.database.transact(work);
  }

  private emit(changes: readonly StoreChange[]): void {
    this.database.announce(changes);
  }

  async createSession(request: CreateSessionRequest): Promise<LoadedSession> {
    const { appName, userId } = request;
    const id = request.sessionId ?? newId();
    const now = Date.now();
    // A private copy: the returned session must share nothing with the request. Copying can
    // fail (a getter that turns into a function after validation): that is bad input.
    let copy: Record<string, unknown> | undefined;
    try {
      copy = request.state && structuredClone(request.state);
    } catch (error) {
      throw normalizeStorageError(error);
    }
    const { record, state, app, user } = await this.creates.push({ appName, userId, id, state: splitDelta(copy), now });
    return toLoaded(record, state, app, user, []);
  }

  /**
   * One round trip when the session's uid is remembered: the events are read
   * with that uid alongside the session record (see `readSessionIn`).
   */
  async getSession(request: GetSessionRequest): Promise<LoadedSession | undefined> {
    const read = await this.readSession(request);
    return read && toLoaded(read.record, read.state, read.app, read.user, read.events.map(eventOf));
  }

  /**
   * `getSession` with the events left as the text of one JSON array
   * (`eventsJson`, `session.events` empty): what a worker sends the page, so
   * the events are cloned once (out of IndexedDB, as text) rather than twice.
   */
  async loadSession(request: GetSessionRequest): Promise<LoadedSession | undefined> {
    const read = await this.readSession(request);
    return read && loadedAsText(read);
  }

  private async readSession(request: GetSessionRequest): Promise<SessionRead | undefined> {
    const { appName, userId, sessionId, config } = request;
    if (config?.fromLatestCompaction) await loadCompaction();
    const key = sessionKeyString(appName, userId, sessionId);
    return this.run(async (db) => {
      const read = await readSessionIn(db.transaction(ALL_STORES, 'readonly'), request, this.places.get(key));
      if (read) this.rememberPlace(key, read.record);
      else this.places.delete(key);
      return read;
    });
  }

  /** Bounded: past the limit the memory starts over, which costs only a second round per read. */
  private rememberPlace(key: string, place: Place): void {
    if (this.places.size >= REMEMBERED_PLACES && !this.places.has(key)) this.places.clear();
    this.places.set(key, { uid: place.uid, ...(place.nextSeq !== undefined && { nextSeq: place.nextSeq }) });
  }

  listSessions(request: ListSessionsRequest): Promise<ListedSessions> {
    const { appName, userId, limit, offset, page, order } = request;
    return this.run(async (db) => {
      const tx = db.transaction(ALL_STORES, 'readonly');
      const sessions = tx.objectStore('sessions');
      const start = limit !== undefined && page !== undefined ? (page - 1) * limit : (offset ?? 0);
      const take = limit ?? Number.POSITIVE_INFINITY;
      // The page does not depend on the counts: read both in the same round.
      const state = tx.objectStore('state');
      const [app, appState, owner, records] = await Promise.all([
        tx.objectStore('appState').get(appName),
        readState(state, appScope(appName)),
        userId === undefined ? undefined : tx.objectStore('userState').get([appName, userId]),
        userId === undefined
          ? readPage(sessions.index('byAppTime'), [appName], order ?? 'asc', start, take)
          : readPage(sessions.index('byUserTime'), [appName, userId], order ?? 'asc', start, take),
      ]);
      const totalItems = (userId === undefined ? app?.sessionCount : owner?.sessionCount) ?? 0;
      // Each listed session's state and its user's, read in one more round.
      const ids = [...new Set(records.map((r) => r.userId))];
      const [own, users] = await Promise.all([
        Promise.all(records.map((r) => readSessionState(state, r))),
        Promise.all(ids.map((u) => readState(state, userScope(appName, u)))),
      ]);
      const userStates = new Map<string, StateRecord>(ids.map((u, i) => [u, users[i] ?? {}]));
      for (const r of records) this.rememberPlace(sessionKeyString(r.appName, r.userId, r.id), r);
      const loaded = records.map((r, i) => toLoaded(r, own[i] ?? {}, appState, userStates.get(r.userId) ?? {}, []));
      return {
        sessions: loaded.map((l) => l.session),
        refs: loaded.map((l) => l.ref),
        ...pageOf(limit, page, start, totalItems),
      };
    });
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    const { appName, userId, sessionId } = request;
    let deleted: boolean;
    try {
      deleted = await this.run((db) => removeSession(db, request, true, this.database.sessionCleanups));
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      // A full disk refuses every transaction that writes anything, even one that frees far more
      // than it writes (the session counters): so deleting could never free space. Deletions alone
      // are never refused: remove the session and its events first, then fix the counters in the
      // room that made. Should that still not fit, the deletion stands and only the counts behind
      // listSessions' totalItems stay one too high.
      deleted = await this.run((db) => removeSession(db, request, false, this.database.sessionCleanups));
      if (deleted) await this.run((db) => decrementCounts(db, appName, userId)).catch(() => {});
    }
    this.places.delete(sessionKeyString(appName, userId, sessionId));
    if (deleted) {
      this.emit([
        { type: 'deleted', appName, userId, sessionId, revision: -1, lastUpdateTime: Date.now(), eventIds: [] },
      ]);
    }
  }

  /** Answers the dangling calls of the session's last invocation (see `seal.ts`). */
  async sealInterrupted(key: SessionKey): Promise<Event[]> {
    return (await loadSeal()).sealInterrupted(this, key);
  }

  /** Appends the rewind event `request` calls for (see `rewind.ts`); resolves it. */
  async rewind(request: RewindRequest): Promise<Event> {
    return (await loadRewind()).rewind(this.database, request, this.durability);
  }

  /**
   * Erases the events `request` names (see `erase.ts`), marked as erased `at`, each keeping the state
   * delta `kept` names for it (without `kept`: its writes still in effect); resolves what it erased.
   */
  async erase(request: EraseRequest, at?: number, kept?: ReadonlyMap<string, StateRecord>): Promise<EraseResult> {
    return (await loadErase()).erase(this.database, request, this.durability, at, kept);
  }

  /**
   * Queues `batch` for the next group commit. Must resolve only after the
   * transaction that holds it has committed, and reject if it aborts.
   */
  appendEvents(batch: AppendBatch): Promise<AppendOutcome> {
    if (this.database.closed) return Promise.reject(this.database.closedError);
    return this.appends.push(batch).then((written) => written.outcome);
  }

  /** First blind (see `commitCreates`); a group with an id already stored is written again with lookups. */
  private async writeCreates(orders: CreateOrder[]): Promise<Settled<Created>[]> {
    try {
      return await this.run((db) => commitCreates(db, orders, true));
    } catch (error) {
      if (!isDuplicateId(error)) throw error;
      return this.run((db) => commitCreates(db, orders, false));
    }
  }

  /** First blind (see `commitGroup`); a group with an event id already stored is written again with lookups. */
  private async writeAppends(batches: AppendBatch[]): Promise<Settled<Appended>[]> {
    const durability = strictestOf(batches, this.durability);
    let options: GroupOptions = { blind: true, remembered: (uid) => this.records.get(uid) };
    let results: GroupResult[];
    for (;;) {
      try {
        results = await this.run((db) => commitGroup(db, batches, durability, options));
        break;
      } catch (error) {
        // The group may have changed remembered records in place before it failed.
        for (const b of batches) if (b.ref) this.records.delete(b.ref.uid);
        if (error instanceof RememberedRecordStale && options.remembered) options = { blind: options.blind };
        else if (isDuplicateId(error) && options.blind) options = { blind: false };
        else throw error;
      }
    }
    return results.map((r) => {
      if (!r.outcome) return { error: r.error as Error };
      if (r.record) this.rememberRecord(r.record);
      return { value: { outcome: r.outcome, change: r.change } };
    });
  }

  /**
   * A private copy: in-thread, a record's state values may be the caller's own
   * objects (from an event's delta), which the caller may change after the append.
   */
  private rememberRecord(record: SessionRecord): void {
    if (this.records.size >= REMEMBERED_RECORDS && !this.records.has(record.uid)) this.records.clear();
    this.records.set(record.uid, structuredClone(record));
  }

  private appendsCommitted(batches: AppendBatch[], results: Settled<Appended>[]): void {
    const changes: StoreChange[] = [];
    results.forEach((result, i) => {
      const b = batches[i] as AppendBatch;
      const appended = result.value;
      if (!appended) return;
      const uid = appended.outcome.ref?.uid;
      if (uid) this.rememberPlace(sessionKeyString(b.appName, b.userId, b.sessionId), this.records.get(uid) ?? { uid });
      if (appended.change) changes.push(appended.change);
    });
    this.emit(changes);
  }

  private createsCommitted(orders: CreateOrder[], results: Settled<Created>[]): void {
    const changes: StoreChange[] = [];
    results.forEach((result, i) => {
      const o = orders[i] as CreateOrder;
      if (!result.value) return;
      this.rememberPlace(sessionKeyString(o.appName, o.userId, o.id), result.value.record);
      changes.push({
        type: 'created',
        appName: o.appName,
        userId: o.userId,
        sessionId: o.id,
        revision: 0,
        lastUpdateTime: o.now,
        eventIds: [],
        scopes: { app: !isEmpty(o.state.app), user: !isEmpty(o.state.user) },
      });
    });
    this.emit(changes);
  }

  /**
   * One read of a time index's keys: a consistent snapshot of which sessions
   * exist, in listing order, without loading any state or events.
   */
  listSessionKeys(request: ListSessionKeysRequest): Promise<SessionKey[]> {
    const { appName, userId } = request;
    return this.run(async (db) => {
      const sessions = db.transaction('sessions').objectStore('sessions');
      const keys =
        appName === undefined
          ? await sessions.index('byAppTime').getAllKeys()
          : userId === undefined
            ? await sessions.index('byAppTime').getAllKeys(bound([appName], [appName, []]))
            : await sessions.index('byUserTime').getAllKeys(bound([appName, userId], [appName, userId, []]));
      return keys.map(([app, user, id]) => ({ appName: app, userId: user, sessionId: id }));
    });
  }

  /**
   * Writes whole sessions in one transaction (see `commitImport`), then tells
   * subscribers. `extra` writes more in that transaction (artifacts); without
   * it, the imported sessions' stale artifacts are cleared, as `deleteSession` would.
   */
  async importSessions(
    batch: ImportBatch,
    onProgress?: (processed: number) => void,
    extra?: ImportExtra,
  ): Promise<ImportOutcome> {
    const { commitImport } = await loadImport();
    const { outcome, changes } = await this.run((db) =>
      commitImport(db, batch, this.durability, onProgress, extra ?? cleanupOnImport(this.database.sessionCleanups)),
    );
    this.emit(changes);
    return outcome;
  }

  getUserState(request: UserStateRequest): Promise<Record<string, unknown>> {
    return this.run((db) =>
      readState(db.transaction('state').objectStore('state'), userScope(request.appName, request.userId)),
    );
  }

  getAppState(request: AppStateRequest): Promise<Record<string, unknown>> {
    return this.run((db) => readState(db.transaction('state').objectStore('state'), appScope(request.appName)));
  }

  listApps(): Promise<AppSummary[]> {
    return this.run(async (db) =>
      (await db.getAll('appState')).map((r) => ({ appName: r.appName, sessionCount: r.sessionCount })),
    );
  }

  listUsers(request: ListUsersRequest): Promise<UserSummary[]> {
    return this.run(async (db) => {
      const tx = db.transaction('userState', 'readonly');
      const records = await readUsers(tx.objectStore('userState'), request.appName, request.offset ?? 0, request.limit);
      return records.map((r) => ({ appName: r.appName, userId: r.userId, sessionCount: r.sessionCount }));
    });
  }

  /** Lets queued appends commit, then closes the database; later calls reject with `StoreClosedError`. */
  async close(): Promise<void> {
    await Promise.all([this.appends.drained(), this.creates.drained()]);
    await this.database.close();
  }
}
