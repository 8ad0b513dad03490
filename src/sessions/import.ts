/**
 * Import: whole sessions written in one readwrite transaction over every store,
 * so an import is all or nothing (a conflict, a quota error or an abort leaves
 * the database as it was). Each imported session is a fresh incarnation: a new
 * `uid`, revision 0, its events at `seq` 0..n-1 in the order given.
 */
import { AlreadyExistsError, InvalidInputError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { applyDelta, isEmpty, splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { bound, type Db, handled, type Tx } from '../database/idb/index.js';
import { keyString } from '../database/keys.js';
import {
  ALL_STORES,
  type AppRecord,
  eventRecord,
  type SessionRecord,
  type StoreName,
  type StoreSchema,
  type UserRecord,
} from '../database/records/index.js';
import { storable } from './append.js';
import type { ImportBatch, ImportOutcome } from './protocol.js';

/**
 * More to write in an import's one transaction (artifacts, src/artifacts):
 * `write` learns which sessions were written (new or replacing a stored one),
 * may read and write `stores`, and must issue its writes before it resolves.
 * Its failure aborts the whole import.
 */
export interface ImportExtra {
  stores: StoreName[];
  write(
    tx: Tx<StoreSchema, StoreName>,
    written: readonly { appName: string; userId: string; id: string }[],
  ): Promise<void>;
}

export interface ImportCommit {
  outcome: ImportOutcome;
  /** To tell subscribers once the transaction has committed. */
  changes: StoreChange[];
}

/** Request promises are settled through `tx.done`; their own rejections on abort are expected. */
const ignore = (): void => {};

/**
 * How many requests an import issues before it waits for the previous such
 * chunk to be written. Issuing is synchronous (each value is cloned there), so
 * in chunks the thread's event loop keeps running during a large import.
 */
const CHUNK_REQUESTS = 2000;
/** Most progress reports one import makes while its transaction runs. */
const PROGRESS_STEPS = 100;

/** The unique event-id index refusing a batch means the batch was invalid; anything else passes on. */
function refusal(error: unknown, cause: unknown): unknown {
  const reason = cause ?? error;
  if (reason instanceof Error && reason.name === 'ConstraintError') {
    // Callers check this first; should a batch slip through, the index refuses it whole.
    return new InvalidInputError('importSessions: an event id is given twice in one session; nothing was imported');
  }
  return error;
}

/**
 * Writes `batch` in one transaction. Must reject, having changed nothing, on a
 * conflict under `onConflict: 'error'` or if the transaction aborts.
 * `onProgress` hears how many sessions are written (or skipped) so far while the
 * transaction runs, never the total: only the commit completes an import.
 */
export async function commitImport(
  db: Db<StoreSchema>,
  batch: ImportBatch,
  durability: IDBTransactionDurability,
  onProgress?: (processed: number) => void,
  extra?: ImportExtra,
): Promise<ImportCommit> {
  const tx = db.transaction(extra ? [...ALL_STORES, ...extra.stores] : ALL_STORES, 'readwrite', { durability });
  const writtenKeys: { appName: string; userId: string; id: string }[] = [];
  const sessions = tx.objectStore('sessions');
  const events = tx.objectStore('events');
  const appStore = tx.objectStore('appState');
  const userStore = tx.objectStore('userState');

  // Issue every read up front so they pipeline; no await on anything but IndexedDB below.
  const found = batch.sessions.map((s) => sessions.get([s.appName, s.userId, s.id]));
  const appReads = new Map<string, Promise<AppRecord | undefined>>();
  const userReads = new Map<string, Promise<UserRecord | undefined>>();
  for (const s of batch.sessions) {
    if (!appReads.has(s.appName)) appReads.set(s.appName, handled(appStore.get(s.appName)));
    const uk = keyString([s.appName, s.userId]);
    if (!userReads.has(uk)) userReads.set(uk, handled(userStore.get([s.appName, s.userId])));
  }
  const existing = await Promise.all(found);

  if (batch.onConflict === 'error') {
    const at = existing.findIndex((record) => record !== undefined);
    if (at >= 0) {
      tx.abort();
      await tx.done.catch(ignore);
      const s = batch.sessions[at] as ImportBatch['sessions'][number];
      throw new AlreadyExistsError(
        `importSessions: sessions[${at}]: Session with id ${s.id} already exists. (app "${s.appName}", user "${s.userId}"; nothing was imported)`,
      );
    }
  }

  const apps = new Map<string, AppRecord>();
  for (const [name, p] of appReads) apps.set(name, (await p) ?? { appName: name, state: {}, sessionCount: 0 });
  const users = new Map<string, UserRecord>();
  for (const [k, p] of userReads) {
    const [appName, userId] = JSON.parse(k) as [string, string];
    users.set(k, (await p) ?? { appName, userId, state: {}, sessionCount: 0 });
  }

  const outcome: ImportOutcome = { sessions: 0, events: 0, skipped: 0 };
  const changes: StoreChange[] = [];
  const dirtyApps = new Set<string>();
  const dirtyUsers = new Set<string>();
  const total = batch.sessions.length;
  const step = Math.max(1, Math.ceil(total / PROGRESS_STEPS));
  const reportAfter = (processed: number): ((request: Promise<unknown>) => void) | undefined =>
    onProgress && processed % step === 0 && processed < total
      ? (request) => request.then(() => onProgress(processed), ignore)
      : undefined;
  // A skipped session is reported after the write before it, so reports never go backwards.
  let lastWrite: Promise<unknown> = Promise.resolve();
  let issued = 0;
  let inFlight: Promise<unknown> | undefined;
  try {
    for (let i = 0; i < total; i++) {
      const session = batch.sessions[i] as ImportBatch['sessions'][number];
      const { appName, userId, id } = session;
      const old = existing[i];
      if (old && batch.onConflict === 'skip') {
        outcome.skipped++;
        reportAfter(i + 1)?.(lastWrite);
        continue;
      }
      const userKey = keyString([appName, userId]);
      const app = apps.get(appName) as AppRecord;
      const user = users.get(userKey) as UserRecord;
      dirtyApps.add(appName);
      dirtyUsers.add(userKey);
      if (old) {
        events.delete(bound([old.uid, 0], [old.uid, Number.POSITIVE_INFINITY])).catch(ignore);
        changes.push({
          type: 'deleted',
          appName,
          userId,
          sessionId: id,
          revision: -1,
          lastUpdateTime: Date.now(),
          eventIds: [],
        });
      } else {
        app.sessionCount++;
        user.sessionCount++;
      }
      const scoped = splitDelta(session.state);
      if (!isEmpty(scoped.app)) applyDelta(app.state, scoped.app);
      if (!isEmpty(scoped.user)) applyDelta(user.state, scoped.user);
      const uid = newId();
      session.events.forEach((event, seq) => {
        events.put(eventRecord(uid, seq, storable(event))).catch(ignore);
      });
      const record: SessionRecord = {
        appName,
        userId,
        id,
        uid,
        state: scoped.session,
        // The format carries no creation time; the first event is the closest known to it.
        createTime: session.events[0]?.timestamp ?? session.lastUpdateTime,
        lastUpdateTime: session.lastUpdateTime,
        revision: 0,
        nextSeq: session.events.length,
        eventCount: session.events.length,
      };
      // Requests complete in order: once the record is written, so are its events.
      const written = sessions.put(record);
      written.catch(ignore);
      lastWrite = written;
      reportAfter(i + 1)?.(written);
      outcome.sessions++;
      outcome.events += session.events.length;
      writtenKeys.push({ appName, userId, id });
      changes.push({
        type: 'created',
        appName,
        userId,
        sessionId: id,
        revision: 0,
        lastUpdateTime: record.lastUpdateTime,
        eventIds: [],
      });
      issued += session.events.length + 1;
      if (issued >= CHUNK_REQUESTS) {
        // Keep one chunk in flight and let the thread breathe: waiting on a request keeps the transaction active.
        issued = 0;
        if (inFlight) await inFlight;
        inFlight = written;
      }
    }
    await extra?.write(tx, writtenKeys);
  } catch (error) {
    // Requests already issued must not commit: an import is whole or nothing.
    try {
      tx.abort();
    } catch {
      // Already aborted by IndexedDB itself.
    }
    await tx.done.catch(ignore);
    throw refusal(error, tx.error);
  }
  for (const name of dirtyApps) appStore.put(apps.get(name) as AppRecord).catch(ignore);
  for (const k of dirtyUsers) userStore.put(users.get(k) as UserRecord).catch(ignore);
  try {
    await tx.done;
  } catch (error) {
    throw refusal(error, tx.error);
  }
  return { outcome, changes };
}
