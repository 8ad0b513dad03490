/**
 * The store engine: the session service in terms of keys and revisions. It owns
 * the database connection and is what a worker exposes. It trusts its input:
 * callers validate first (the in-thread front does; the worker host does for
 * anything arriving over a port).
 */

import { clearImportedSessions, deleteSessionArtifacts } from '../artifacts/ranges.js';
import { CloseSignal } from '../core/close-signal.js';
import { AlreadyExistsError, normalizeStorageError, QuotaExceededError, StoreClosedError } from '../core/errors.js';
import { GroupQueue, type Settled } from '../core/group-commit.js';
import { newId } from '../core/ids.js';
import { isEmpty, mergeState, type StateRecord, splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { ChangePublisher } from '../database/changes.js';
import { DEFAULT_DB_NAME } from '../database/defaults.js';
import { bound, type Db } from '../database/idb/index.js';
import { openDatabase, type UpgradeStep } from '../database/open.js';
import {
  ALL_STORES,
  type AppRecord,
  eventOf,
  eventsText,
  type SessionRecord,
  type StoreSchema,
  type UserRecord,
} from '../database/records/index.js';
import type {
  AppStateRequest,
  AppSummary,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListUsersRequest,
  Session,
  SessionKey,
  UserStateRequest,
  UserSummary,
} from '../types.js';
import { commitGroup, type GroupOptions, type GroupResult, isDuplicateId, RememberedRecordStale } from './append.js';
import { type Created, type CreateOrder, commitCreates } from './create.js';
import { commitImport, type ImportExtra } from './import.js';
import type {
  AppendBatch,
  AppendOutcome,
  Backend,
  ImportBatch,
  ImportOutcome,
  ListedSessions,
  LoadedSession,
} from './protocol.js';
import { type Place, readAhead, readEvents, readPage, readUsers } from './reads.js';

export interface EngineOptions {
  /** Database name. Default `'adk-sessions'`. */
  dbName?: string;
  /** The IndexedDB to use. Default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory;
  /**
   * The `IDBKeyRange` class of `indexedDB`'s implementation, where it is not a
   * global (fake-indexeddb in Node without `fake-indexeddb/auto`). Optional: without
   * it range reads step a cursor instead, which is correct but slower.
   */
  IDBKeyRange?: typeof IDBKeyRange;
  /**
   * Durability of appends unless an append says otherwise. Default `'relaxed'`:
   * a committed append survives a tab, worker or browser crash; `'strict'` also
   * survives a power cut, at several times the latency per transaction.
   */
  durability?: Durability;
  /** How long a schema upgrade waits for other tabs before `UpgradeBlockedError`. Default 5000 ms. */
  blockedTimeoutMs?: number;
}

/** Options only tests pass: kept out of `EngineOptions`, which apps see. */
export interface EngineTestingOptions extends EngineOptions {
  /**
   * Tests only, never in an app: the schema's upgrade steps in place of the
   * shipped ones, so a test can play a newer release (the shipped steps plus
   * its own) against tabs running this one.
   */
  upgradesForTesting?: readonly UpgradeStep[];
}

/** An acknowledged append batch, and the change notice it makes once its group has committed. */
interface Appended {
  outcome: AppendOutcome;
  change: StoreChange | undefined;
}

/** Most batches one group-commit transaction takes; the rest wait for the next. */
const MAX_GROUP = 512;
const strictness: Record<Durability, number> = {
  relaxed: 0,
  default: 1,
  strict: 2,
};

export { DEFAULT_DB_NAME };

/** Most session places an engine remembers for its reads. */
const REMEMBERED_PLACES = 10_000;
/** Most session records an engine remembers for its appends. */
const REMEMBERED_RECORDS = 1_000;
const sessionKeyString = (appName: string, userId: string, sessionId: string): string =>
  `${appName}\u0000${userId}\u0000${sessionId}`;

export class StoreEngine implements Backend {
  readonly dbName: string;
  private readonly factory: IDBFactory;
  private readonly keyRange: typeof IDBKeyRange | undefined;
  private readonly durability: Durability;
  private readonly blockedTimeoutMs: number;
  private connection: Promise<Db<StoreSchema>> | undefined;
  private readonly closeSignal = new CloseSignal();
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
  private readonly publisher: ChangePublisher;
  private readonly upgrades: readonly UpgradeStep[] | undefined;
  private readonly commitListeners = new Set<(changes: readonly StoreChange[]) => void>();
  /** Where each session was last seen, so reads can skip a round trip (see `readSession`). */
  private readonly places = new Map<string, Place>();
  /** The session record last committed per uid, so an append need not wait for its read (see `commitGroup`). */
  private readonly records = new Map<string, SessionRecord>();

  constructor(options: EngineTestingOptions = {}) {
    this.dbName = options.dbName ?? DEFAULT_DB_NAME;
    const factory = options.indexedDB ?? globalThis.indexedDB;
    if (!factory) throw new StoreClosedError('no IndexedDB in this environment: pass `indexedDB`');
    this.factory = factory;
    this.keyRange = options.IDBKeyRange;
    this.durability = options.durability ?? 'relaxed';
    this.blockedTimeoutMs = options.blockedTimeoutMs ?? 5000;
    this.publisher = new ChangePublisher(this.dbName);
    this.upgrades = options.upgradesForTesting;
  }

  /**
   * Calls `listener` once when the engine closes for good: by `close()`, or
   * from outside (another tab upgrading or deleting the database, the browser).
   * Called at once if it is already closed. Returns the unsubscribe function.
   */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.closeSignal.on(listener);
  }

  /** Marks the engine closed with `error` (the first reason wins) and tells the listeners. */
  private markClosed(error: StoreClosedError): void {
    this.closeSignal.fire(error);
  }

  /** True once closed, by `close()` or from outside (another tab's upgrade, the browser). */
  get closed(): boolean {
    return this.closeSignal.error !== undefined;
  }

  /** Tells every subscriber, in this tab and others, about the changes of one committed transaction. */
  private emit(changes: readonly StoreChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.commitListeners) {
      try {
        listener(changes);
      } catch (error) {
        // A derived view's failure must not fail the write that committed.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.publisher.publish(changes);
  }

  /**
   * Hears this engine's committed changes at once, in this realm, before its
   * callers' promises settle: what keeps derived data (the search index) current
   * for a read that follows a write, without waiting for the broadcast. Must not
   * do work on the spot (it runs on the commit path): note and schedule only.
   */
  onCommitted(listener: (changes: readonly StoreChange[]) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  private db(): Promise<Db<StoreSchema>> {
    if (this.closeSignal.error) return Promise.reject(this.closeSignal.error);
    if (!this.connection) {
      const opening = openDatabase({
        indexedDB: this.factory,
        ...(this.keyRange ? { IDBKeyRange: this.keyRange } : {}),
        name: this.dbName,
        blockedTimeoutMs: this.blockedTimeoutMs,
        onExternalClose: (error) => this.markClosed(error),
        ...(this.upgrades ? { upgrades: this.upgrades } : {}),
      });
      this.connection = opening;
      // A failed open (blocked, refused) is retried by the next call.
      opening.catch(() => {
        if (this.connection === opening) this.connection = undefined;
      });
    }
    return this.connection;
  }

  /**
   * Runs `work` on the open database, its failures typed as every engine call's:
   * how capabilities beside sessions (src/artifacts) reach the same database.
   */
  transact<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T> {
    return this.run(work);
  }

  /**
   * Tells subscribers about changes committed through `transact` (sync's
   * writes), as the engine's own writes do.
   */
  announce(changes: readonly StoreChange[]): void {
    if (changes.length > 0) this.emit(changes);
  }

  /** Runs `work` and turns whatever IndexedDB threw into the typed family. */
  private async run<T>(work: (db: Db<StoreSchema>) => Promise<T>): Promise<T> {
    const db = await this.db();
    try {
      return await work(db);
    } catch (error) {
      throw this.closeSignal.error && !(error instanceof AlreadyExistsError)
        ? this.closeSignal.error
        : normalizeStorageError(error);
    }
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
    const { record, app, user } = await this.creates.push({ appName, userId, id, state: splitDelta(copy), now });
    return toLoaded(record, app, user, []);
  }

  /**
   * One round trip when the session's uid is remembered: the events are read
   * with that uid alongside the session record, and used only if the record
   * (read in the same transaction) confirms the uid; otherwise they are read
   * again with the right one.
   */
  async getSession(request: GetSessionRequest): Promise<LoadedSession | undefined> {
    const read = await this.readSession(request);
    return read && toLoaded(read.record, read.app, read.user, read.events.map(eventOf));
  }

  /**
   * `getSession` with the events left as the text of one JSON array
   * (`eventsJson`, `session.events` empty): what a worker sends the page, so
   * the events are cloned once (out of IndexedDB, as text) rather than twice.
   */
  async loadSession(request: GetSessionRequest): Promise<LoadedSession | undefined> {
    const read = await this.readSession(request);
    if (!read) return undefined;
    return { ...toLoaded(read.record, read.app, read.user, []), eventsJson: eventsText(read.events) };
  }

  private readSession(request: GetSessionRequest) {
    const { appName, userId, sessionId, config } = request;
    const key = sessionKeyString(appName, userId, sessionId);
    return this.run(async (db) => {
      const tx = db.transaction(ALL_STORES, 'readonly');
      const place = this.places.get(key);
      const reads = Promise.all([
        tx.objectStore('sessions').get([appName, userId, sessionId]),
        tx.objectStore('appState').get(appName),
        tx.objectStore('userState').get([appName, userId]),
      ]);
      const ahead = place && readAhead(tx, place, config);
      const [record, app, user] = await reads;
      if (!record) {
        this.places.delete(key);
        return undefined;
      }
      this.rememberPlace(key, record);
      const events = (await ahead?.(record)) ?? (await readEvents(tx, record, config));
      return { record, app: app?.state ?? {}, user: user?.state ?? {}, events };
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
      const [app, owner, records] = await Promise.all([
        tx.objectStore('appState').get(appName),
        userId === undefined ? undefined : tx.objectStore('userState').get([appName, userId]),
        userId === undefined
          ? readPage(sessions.index('byAppTime'), [appName], order ?? 'asc', start, take)
          : readPage(sessions.index('byUserTime'), [appName, userId], order ?? 'asc', start, take),
      ]);
      const totalItems = (userId === undefined ? app?.sessionCount : owner?.sessionCount) ?? 0;
      let pageOut: number;
      let limitOut: number;
      let totalPages: number;
      if (limit !== undefined) {
        pageOut = page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1);
        limitOut = limit;
        totalPages = limit === 0 ? 0 : Math.ceil(totalItems / limit);
      } else {
        pageOut = 1;
        limitOut = totalItems;
        totalPages = totalItems === 0 ? 0 : 1;
      }
      const userStates = new Map<string, StateRecord>();
      if (userId !== undefined) userStates.set(userId, owner?.state ?? {});
      else {
        const ids = [...new Set(records.map((r) => r.userId))];
        const found = await Promise.all(ids.map((u) => tx.objectStore('userState').get([appName, u])));
        ids.forEach((u, i) => {
          userStates.set(u, found[i]?.state ?? {});
        });
      }
      for (const r of records) this.rememberPlace(sessionKeyString(r.appName, r.userId, r.id), r);
      const loaded = records.map((r) => toLoaded(r, app?.state ?? {}, userStates.get(r.userId) ?? {}, []));
      return {
        sessions: loaded.map((l) => l.session),
        refs: loaded.map((l) => l.ref),
        page: pageOut,
        limit: limitOut,
        totalItems,
        totalPages,
      };
    });
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    const { appName, userId, sessionId } = request;
    let deleted: boolean;
    try {
      deleted = await this.run((db) => removeSession(db, request, true));
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      // A full disk refuses every transaction that writes anything, even one that frees far more
      // than it writes (the session counters): so deleting could never free space. Deletions alone
      // are never refused: remove the session and its events first, then fix the counters in the
      // room that made. Should that still not fit, the deletion stands and only the counts behind
      // listSessions' totalItems stay one too high.
      deleted = await this.run((db) => removeSession(db, request, false));
      if (deleted) await this.run((db) => decrementCounts(db, appName, userId)).catch(() => {});
    }
    this.places.delete(sessionKeyString(appName, userId, sessionId));
    if (deleted) {
      this.emit([
        {
          type: 'deleted',
          appName,
          userId,
          sessionId,
          revision: -1,
          lastUpdateTime: Date.now(),
          eventIds: [],
        },
      ]);
    }
  }

  /**
   * Queues `batch` for the next group commit. Must resolve only after the
   * transaction that holds it has committed, and reject if it aborts.
   */
  appendEvents(batch: AppendBatch): Promise<AppendOutcome> {
    if (this.closeSignal.error) return Promise.reject(this.closeSignal.error);
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
    const durability = this.durabilityOf(batches);
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

  private durabilityOf(batches: AppendBatch[]): IDBTransactionDurability {
    let chosen: Durability = 'relaxed';
    for (const b of batches) {
      const d = b.durability ?? this.durability;
      if (strictness[d] > strictness[chosen]) chosen = d;
    }
    return chosen;
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
    const { outcome, changes } = await this.run((db) =>
      commitImport(db, batch, this.durability, onProgress, extra ?? clearImportedSessions),
    );
    this.emit(changes);
    return outcome;
  }

  getUserState(request: UserStateRequest): Promise<Record<string, unknown>> {
    return this.run(async (db) => (await db.get('userState', [request.appName, request.userId]))?.state ?? {});
  }

  getAppState(request: AppStateRequest): Promise<Record<string, unknown>> {
    return this.run(async (db) => (await db.get('appState', request.appName))?.state ?? {});
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

  /** Lets queued appends commit, then closes the connection; later calls reject with `StoreClosedError`. */
  async close(): Promise<void> {
    await Promise.all([this.appends.drained(), this.creates.drained()]);
    this.markClosed(new StoreClosedError(`the store for database "${this.dbName}" is closed`));
    const connection = this.connection;
    this.connection = undefined;
    if (connection) (await connection.catch(() => undefined))?.close();
    this.publisher.close();
  }
}

function toLoaded(
  record: SessionRecord,
  app: StateRecord,
  user: StateRecord,
  events: Session['events'],
): LoadedSession {
  return {
    session: {
      id: record.id,
      appName: record.appName,
      userId: record.userId,
      state: mergeState(app, user, record.state),
      events,
      lastUpdateTime: record.lastUpdateTime,
    },
    ref: { uid: record.uid, revision: record.revision },
  };
}

/**
 * Removes a session, its events and its session-scoped artifacts in one transaction; with `counts`, also
 * lowers the app's and user's session counts in it. Resolves `false` for an
 * unknown session.
 */
async function removeSession(
  db: Db<StoreSchema>,
  { appName, userId, sessionId }: DeleteSessionRequest,
  counts: boolean,
): Promise<boolean> {
  const tx = db.transaction([...ALL_STORES, 'artifacts'], 'readwrite');
  // Also for a session never created: ADK lets artifacts be saved under any session id.
  deleteSessionArtifacts(tx.objectStore('artifacts'), appName, userId, sessionId);
  const [record, app, user] = await Promise.all([
    tx.objectStore('sessions').get([appName, userId, sessionId]),
    counts ? tx.objectStore('appState').get(appName) : undefined,
    counts ? tx.objectStore('userState').get([appName, userId]) : undefined,
  ]);
  if (!record) {
    await tx.done;
    return false;
  }
  tx.objectStore('sessions')
    .delete([appName, userId, sessionId])
    .catch(() => {});
  tx.objectStore('events')
    .delete(bound([record.uid, 0], [record.uid, Number.POSITIVE_INFINITY]))
    .catch(() => {});
  lowerCounts(tx.objectStore('appState'), tx.objectStore('userState'), app, user);
  await tx.done;
  return true;
}

type Putter<T> = { put(value: T): Promise<unknown> };

/** Writes `app` and `user` back with one session fewer; settled through their transaction. */
function lowerCounts(
  apps: Putter<AppRecord>,
  users: Putter<UserRecord>,
  app: AppRecord | undefined,
  user: UserRecord | undefined,
): void {
  if (app) apps.put({ ...app, sessionCount: Math.max(0, app.sessionCount - 1) }).catch(() => {});
  if (user) users.put({ ...user, sessionCount: Math.max(0, user.sessionCount - 1) }).catch(() => {});
}

/** Lowers the app's and user's session counts by one (a deletion made without them). */
async function decrementCounts(db: Db<StoreSchema>, appName: string, userId: string): Promise<void> {
  const tx = db.transaction(['appState', 'userState'], 'readwrite');
  const [app, user] = await Promise.all([
    tx.objectStore('appState').get(appName),
    tx.objectStore('userState').get([appName, userId]),
  ]);
  lowerCounts(tx.objectStore('appState'), tx.objectStore('userState'), app, user);
  await tx.done;
}
