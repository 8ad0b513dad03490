/**
 * Import: whole sessions written in one readwrite transaction over every store,
 * so an import is all or nothing (a conflict, a quota error or an abort leaves
 * the database as it was). Each imported session is a fresh incarnation: a new
 * `uid`, revision 0, its events at `seq` 0..n-1 in the order given.
 */
import { AlreadyExistsError, InvalidInputError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { bound, type Db, type Tx } from '../database/idb/index.js';
import { addSessions } from '../database/records/counts.js';
import {
  ALL_STORES,
  eventRecord,
  type SessionRecord,
  type StoreName,
  type StoreSchema,
} from '../database/records/index.js';
import {
  appScope,
  clearState,
  initialKey,
  sessionScope,
  userScope,
  writeInitialState,
  writeSessionState,
  writeState,
} from '../database/records/state.js';
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

type ImportTx = Tx<StoreSchema, StoreName>;
type Imported = ImportBatch['sessions'][number];

/** Removes what replacing `old` with `session` must not keep: its events and its own state. */
async function replaceOld(tx: ImportTx, session: Imported, old: SessionRecord): Promise<void> {
  const events = tx.objectStore('events');
  events.delete(bound([old.uid, 0], [old.uid, Number.POSITIVE_INFINITY]));
  await clearState(tx.objectStore('state'), sessionScope(session.appName, session.userId, session.id));
}

/**
 * Issues the writes of one imported session (after `replaceOld` if it replaces
 * one): a new incarnation with its events at `seq` 0..n-1 and its state. Returns
 * the session record's put, the last request.
 */
function writeSession(tx: ImportTx, session: Imported): Promise<unknown> {
  const { appName, userId, id } = session;
  const events = tx.objectStore('events');
  const state = tx.objectStore('state');
  const scoped = splitDelta(session.state);
  writeState(state, appScope(appName), scoped.app);
  writeState(state, userScope(appName, userId), scoped.user);
  const uid = newId();
  session.events.forEach((event, seq) => {
    events.put(eventRecord(uid, seq, storable(event)));
  });
  const record: SessionRecord = {
    appName,
    userId,
    id,
    uid,
    state: {},
    // The format carries no creation time; the first event is the closest known to it.
    createTime: session.events[0]?.timestamp ?? session.lastUpdateTime,
    lastUpdateTime: session.lastUpdateTime,
    revision: 0,
    nextSeq: session.events.length,
    eventCount: session.events.length,
  };
  writeSessionState(state, record, scoped.session);
  // The format does not carry it: a rewind infers it from the events (see rewind.ts).
  writeInitialState(state, initialKey(appName, userId, id), {});
  // Requests complete in order: once the record is written, so are its events.
  return tx.objectStore('sessions').put(record);
}

/** The change notice of an imported session (`created`) or of the one it replaced (`deleted`). */
const change = (type: 'created' | 'deleted', { appName, userId, id, lastUpdateTime }: Imported): StoreChange => ({
  type,
  appName,
  userId,
  sessionId: id,
  revision: type === 'created' ? 0 : -1,
  lastUpdateTime: type === 'created' ? lastUpdateTime : Date.now(),
  eventIds: [],
});

/** Reports progress after the request given, at most `PROGRESS_STEPS` times, never the total: only the commit completes an import. */
function progress(onProgress: ((processed: number) => void) | undefined, total: number) {
  const step = Math.max(1, Math.ceil(total / PROGRESS_STEPS));
  return (processed: number, after: Promise<unknown>): void => {
    if (onProgress && processed % step === 0 && processed < total)
      after.then(
        () => onProgress(processed),
        () => {},
      );
  };
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
  // Issued up front so they pipeline; no await on anything but IndexedDB below.
  const found = batch.sessions.map((s) => tx.objectStore('sessions').get([s.appName, s.userId, s.id]));
  const existing = await Promise.all(found);
  const at = batch.onConflict === 'error' ? existing.findIndex((record) => record !== undefined) : -1;
  if (at >= 0) {
    await tx.abandon();
    const s = batch.sessions[at] as Imported;
    throw new AlreadyExistsError(
      `importSessions: sessions[${at}]: Session with id ${s.id} already exists. (app "${s.appName}", user "${s.userId}"; nothing was imported)`,
    );
  }
  const outcome: ImportOutcome = { sessions: 0, events: 0, skipped: 0 };
  const changes: StoreChange[] = [];
  const writtenKeys: { appName: string; userId: string; id: string }[] = [];
  // The sessions that replaced none: one more each in its app's and user's counts.
  const added: Imported[] = [];
  const report = progress(onProgress, batch.sessions.length);
  // A skipped session is reported after the write before it, so reports never go backwards.
  let lastWrite: Promise<unknown> = Promise.resolve();
  let issued = 0;
  let inFlight: Promise<unknown> | undefined;
  try {
    for (const [i, session] of batch.sessions.entries()) {
      const old = existing[i];
      if (old && batch.onConflict === 'skip') {
        outcome.skipped++;
        report(i + 1, lastWrite);
        continue;
      }
      const { appName, userId, id } = session;
      if (old) {
        changes.push(change('deleted', session));
        await replaceOld(tx, session, old);
      } else added.push(session);
      lastWrite = writeSession(tx, session);
      report(i + 1, lastWrite);
      outcome.sessions++;
      outcome.events += session.events.length;
      writtenKeys.push({ appName, userId, id });
      changes.push(change('created', session));
      issued += session.events.length + 1;
      if (issued >= CHUNK_REQUESTS) {
        // Keep one chunk in flight and let the thread breathe: waiting on a request keeps the transaction active.
        issued = 0;
        if (inFlight) await inFlight;
        inFlight = lastWrite;
      }
    }
    await extra?.write(tx, writtenKeys);
    await addSessions(tx, added);
  } catch (error) {
    // Requests already issued must not commit: an import is whole or nothing.
    await tx.abandon();
    // A request that failed because the transaction aborted names the abort; its cause is what the caller must see.
    throw refusal(tx.error ?? error, tx.error);
  }
  try {
    await tx.done;
  } catch (error) {
    throw refusal(error, tx.error);
  }
  return { outcome, changes };
}
