/**
 * Sync's transactions on the device's database. Each one re-reads what it
 * depends on and writes the session, its events, the shared scopes and the
 * sync mark together, so a crash at any point leaves either the old or the new
 * state: never half of a pull or an acknowledgement.
 */
import { newId } from '../core/ids.js';
import { applyDelta, type StateRecord, splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import { bound, type Db, type Tx } from '../database/idb/index.js';
import { addSessions } from '../database/records/counts.js';
import {
  type EventRecord,
  eventOf,
  eventRecord,
  type SessionRecord,
  type StoreName,
  type StoreSchema,
} from '../database/records/index.js';
import {
  appScope,
  initialKey,
  readSessionState,
  replaceSessionState,
  userScope,
  writeSessionState,
  writeState,
} from '../database/records/state.js';
import type { SyncMark, SyncUser } from '../database/records/sync.js';
import { erasedAt, erasedForm, isErased } from '../sessions/erased.js';
import type { Event } from '../types.js';
import { oweErasure, owesErasures } from './erasures.js';
import type { Placed, Positioned } from './wire.js';

export interface UserKey {
  appName: string;
  userId: string;
}

export type Key = [string, string, string];
export type SyncTx = Tx<StoreSchema, StoreName>;

const userRange = ({ appName, userId }: UserKey) => bound([appName, userId], [appName, userId, []]);
const eventsFrom = (uid: string, seq: number) => bound([uid, seq], [uid, Number.POSITIVE_INFINITY]);
export const clone = <T>(value: T): T => structuredClone(value);

/** What the device has not pushed, found by comparing sessions with their marks. */
export interface PendingScan {
  /** Sessions the server has not seen (no mark, or a mark of an earlier incarnation), with their own state. */
  creates: (SessionRecord & { state: StateRecord })[];
  /** Marks whose incarnation is gone: its deletion is not pushed. */
  deletes: SyncMark[];
  /** Sessions with events past their mark. */
  appends: { record: SessionRecord; mark: SyncMark }[];
  /** Sessions with erasures of synced events the server has not taken (see erasures.ts). */
  erasures: string[];
  /** Pending events per session id. */
  counts: Map<string, number>;
  cursor: SyncUser | undefined;
}

export async function scanPending(db: Db<StoreSchema>, user: UserKey): Promise<PendingScan> {
  const tx = db.transaction(['sessions', 'syncSessions', 'syncUsers', 'state'], 'readonly');
  const [records, marks, cursor] = await Promise.all([
    tx.objectStore('sessions').getAll(userRange(user)),
    tx.objectStore('syncSessions').getAll(userRange(user)),
    tx.objectStore('syncUsers').get([user.appName, user.userId]),
  ]);
  const markOf = new Map(marks.map((m) => [m.id, m]));
  const recordOf = new Map(records.map((r) => [r.id, r]));
  const scan: PendingScan = { creates: [], deletes: [], appends: [], erasures: [], counts: new Map(), cursor };
  for (const m of marks) if (recordOf.get(m.id)?.uid !== m.uid) scan.deletes.push(m);
  const creates: Promise<SessionRecord & { state: StateRecord }>[] = [];
  for (const r of records) {
    const m = markOf.get(r.id);
    if (m?.uid !== r.uid) {
      creates.push(readSessionState(tx.objectStore('state'), r).then((state) => ({ ...r, state })));
      scan.counts.set(r.id, r.nextSeq + 1);
    } else {
      if (r.nextSeq > m.syncedNext || m.awaitingCreated) {
        scan.appends.push({ record: r, mark: m });
        scan.counts.set(r.id, r.nextSeq - m.syncedNext);
      }
      if (owesErasures(r, m)) scan.erasures.push(r.id);
    }
  }
  scan.creates = await Promise.all(creates);
  return scan;
}

/** The session's pending events in order, at most `limit`, and the mark they are pending against. */
export async function readPending(
  db: Db<StoreSchema>,
  key: Key,
  limit: number,
): Promise<{ mark: SyncMark; events: Event[] } | undefined> {
  const tx = db.transaction(['sessions', 'events', 'syncSessions'], 'readonly');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  if (!record || !mark || mark.uid !== record.uid) return undefined;
  const events = await tx.objectStore('events').getAll(eventsFrom(record.uid, mark.syncedNext), limit);
  return { mark, events: events.map(eventOf) };
}

/** What to do with pending events that the server's newer events overtook. */
export type Decision = 'rebase' | 'fork' | 'drop';

export interface Integration {
  /** The server's answer to a push of this session's first pending events. */
  placed?: Placed[];
  /** The server's events past the mark's position (earlier ones are ignored: a repeated delivery). */
  incoming?: Positioned[];
  decision?: Decision;
}

export interface Integrated {
  changes: StoreChange[];
  /** Pending events were overtaken by the server's (what `decision` applied to). */
  conflicted: boolean;
  /** The incoming events did not continue the mark's position: pull again from the stored cursor. */
  gap: boolean;
}

/**
 * Brings the server's answer into the session: acknowledged events join the
 * synced prefix with the server's timestamps; incoming events go after the
 * prefix, and the pending events that remain after them (whole: their
 * invocation blocks are never split). Session state is the fold of that order.
 */
export async function integrate(db: Db<StoreSchema>, key: Key, work: Integration): Promise<Integrated> {
  const tx = db.transaction(['sessions', 'events', 'appState', 'userState', 'syncSessions', 'state'], 'readwrite');
  const done: Integrated = { changes: [], conflicted: false, gap: false };
  const [record, stored] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  if (!stored) {
    await tx.done;
    return done;
  }
  const mark = clone(stored);
  const marks = tx.objectStore('syncSessions');
  const lastIncoming = work.incoming?.at(-1)?.pos ?? 0;
  if (!record || record.uid !== mark.uid) {
    // Deleted here, deletion not yet pushed: the server's events of it are moot.
    if (lastIncoming > mark.serverPos) marks.put({ ...mark, serverPos: lastIncoming });
    await tx.done;
    return done;
  }
  const events = tx.objectStore('events');
  let pending = await events.getAll(eventsFrom(record.uid, mark.syncedNext));
  const pendingBefore = pending.length;

  for (const p of work.placed ?? []) {
    if (p.pos <= mark.serverPos) continue;
    const head = pending[0];
    if (p.pos !== mark.serverPos + 1 || !head || head.id !== p.id) break;
    const event = { ...eventOf(head), timestamp: p.timestamp };
    // Erased after its push left: the server's copy may hold what it said.
    if (isErased(event)) oweErasure(mark, record);
    events.put(eventRecord(head.uid, head.seq, event));
    applyDelta(mark.syncedState, splitDelta(event.actions?.stateDelta).session);
    mark.syncedNext = head.seq + 1;
    mark.serverPos = p.pos;
    pending = pending.slice(1);
  }

  const incoming = (work.incoming ?? []).filter((e) => e.pos > mark.serverPos);
  if (incoming.some((e, i) => e.pos !== mark.serverPos + 1 + i)) {
    done.gap = true;
    marks.put(mark);
    await tx.done;
    return done;
  }
  if (incoming.length === 0) {
    marks.put(mark);
    await tx.done;
    return done;
  }

  // Pending events the server already holds were pushed before and their answer lost.
  const arrived = new Set(incoming.map((e) => e.event.id));
  let rest = pending.filter((e) => !arrived.has(e.id));
  done.conflicted = rest.length > 0;
  const decision = done.conflicted ? (work.decision ?? 'rebase') : 'rebase';
  const forked = decision === 'fork' ? rest : [];
  const forkState = clone(mark.syncedState);
  if (decision !== 'rebase') rest = [];

  events.delete(eventsFrom(record.uid, mark.syncedNext));
  let seq = mark.syncedNext;
  const updated: SessionRecord = { ...record };
  // The app's and user's keys the events set, in order: a record per key, as an append writes them.
  const appDelta: StateRecord = {};
  const userDelta: StateRecord = {};
  const erasedHere = new Map<string, Event>();
  for (const e of pending) {
    const event = eventOf(e);
    if (isErased(event)) erasedHere.set(e.id, event);
  }
  for (const { event } of incoming) {
    // Pushed, then erased here before the answer came: it stays erased as it was here (the writes
    // it kept, and those still in the state), and the server's copy is owed the erasure.
    const here = erasedHere.get(event.id);
    const at = here && erasedAt(here);
    const kept =
      here === undefined || at === undefined || isErased(event)
        ? event
        : erasedForm(event, at, here.actions?.stateDelta ?? {});
    if (kept !== event) oweErasure(mark, record);
    events.put(eventRecord(record.uid, seq, kept));
    seq += 1;
    const scoped = splitDelta(kept.actions?.stateDelta);
    applyDelta(mark.syncedState, scoped.session);
    applyDelta(appDelta, scoped.app);
    applyDelta(userDelta, scoped.user);
    updated.lastUpdateTime = Math.max(updated.lastUpdateTime, event.timestamp);
  }
  mark.syncedNext = seq;
  mark.serverPos = incoming.at(-1)?.pos ?? mark.serverPos;
  const state = clone(mark.syncedState);
  for (const e of rest) {
    events.put({ ...e, seq });
    seq += 1;
    const scoped = splitDelta(eventOf(e).actions?.stateDelta);
    applyDelta(state, scoped.session);
    // Pushed later, a pending write lands after the server's: it wins here too.
    applyDelta(appDelta, scoped.app);
    applyDelta(userDelta, scoped.user);
  }
  updated.nextSeq = seq;
  updated.eventCount = record.eventCount - pendingBefore + incoming.length + rest.length;
  updated.revision = record.revision + 1;
  // The session's state is the fold of the new order: replaced whole.
  const stateStore = tx.objectStore('state');
  await replaceSessionState(stateStore, updated, state);
  tx.objectStore('sessions').put(updated);
  writeState(stateStore, appScope(key[0]), appDelta);
  writeState(stateStore, userScope(key[0], key[1]), userDelta);
  marks.put(mark);
  if (forked.length > 0) {
    const fork = forkOf(record, forked, forkState);
    const taken = await tx.objectStore('sessions').getKey([fork.record.appName, fork.record.userId, fork.record.id]);
    if (taken === undefined) {
      writeSessionState(stateStore, fork.record, fork.state);
      tx.objectStore('sessions').add(fork.record);
      for (const e of fork.events) events.put(e);
      await addSessions(tx, [fork.record]);
      done.changes.push(change('created', fork.record, []));
    }
  }
  await tx.done;
  done.changes.unshift(
    change(
      'appended',
      updated,
      incoming.map((e) => e.event.id),
    ),
  );
  return done;
}

/** The id a fork of `record` gets: derived from its first forked event, so a retried fork is not made twice. */
export const forkId = (sessionId: string, firstEventId: string): string => `${sessionId}~fork~${firstEventId}`;

function forkOf(record: SessionRecord, forked: EventRecord[], state: Record<string, unknown>) {
  const uid = newId();
  const first = forked[0] as EventRecord;
  const fork: SessionRecord = {
    ...record,
    id: forkId(record.id, first.id),
    uid,
    revision: forked.length,
    nextSeq: forked.length,
    eventCount: forked.length,
    lastUpdateTime: forked.at(-1)?.timestamp ?? record.lastUpdateTime,
    state: {},
  };
  delete fork.big;
  const events = forked.map((e, i) => ({ ...e, uid, seq: i }));
  const forkState = clone(state);
  for (const e of forked) applyDelta(forkState, splitDelta(eventOf(e).actions?.stateDelta).session);
  return { record: fork, events, state: forkState };
}

function change(type: StoreChange['type'], record: SessionRecord, eventIds: string[]): StoreChange {
  return {
    type,
    appName: record.appName,
    userId: record.userId,
    sessionId: record.id,
    revision: record.revision,
    lastUpdateTime: record.lastUpdateTime,
    eventIds,
    scopes: { app: true, user: true },
  };
}

/**
 * A `created` change from the server. A session the device lacks is created
 * with the server's state; one it has without a mark (made here offline under
 * the same id, or created here and pushed with its answer lost) is adopted:
 * its events become pending behind the server's.
 */
export async function adoptCreated(
  db: Db<StoreSchema>,
  key: Key,
  state: Record<string, unknown>,
): Promise<StoreChange[]> {
  const tx = db.transaction(['sessions', 'events', 'appState', 'userState', 'syncSessions', 'state'], 'readwrite');
  const stateStore = tx.objectStore('state');
  const [record, mark] = await Promise.all([
    tx.objectStore('sessions').get(key),
    tx.objectStore('syncSessions').get(key),
  ]);
  const scoped = splitDelta(clone(state));
  const changes: StoreChange[] = [];
  if (!record) {
    if (mark) {
      // Deleted here after an earlier incarnation: the deletion goes first; this creation comes back after it.
      await tx.done;
      return changes;
    }
    const now = Date.now();
    const created: SessionRecord = {
      appName: key[0],
      userId: key[1],
      id: key[2],
      uid: newId(),
      state: {},
      createTime: now,
      lastUpdateTime: now,
      revision: 0,
      nextSeq: 0,
      eventCount: 0,
    };
    writeSessionState(stateStore, created, scoped.session);
    // The server's creation state is its creator's state at its first push, not always the initial
    // one: a rewind here infers that from the events (see sessions/rewind.ts).
    stateStore.delete(initialKey(...key));
    writeState(stateStore, appScope(key[0]), scoped.app);
    writeState(stateStore, userScope(key[0], key[1]), scoped.user);
    tx.objectStore('sessions').add(created);
    tx.objectStore('syncSessions').put({
      ...userOf(key),
      id: key[2],
      uid: created.uid,
      syncedNext: 0,
      serverPos: 0,
      syncedState: scoped.session,
    });
    await addSessions(tx, [created]);
    changes.push(change('created', created, []));
  } else if (!mark || mark.uid !== record.uid || mark.serverPos === 0 || mark.awaitingCreated) {
    if (mark && mark.uid !== record.uid) {
      // The mark's incarnation awaits its deletion's push; this one is then a creation of its own.
      await tx.done;
      return changes;
    }
    const [all, stored] = await Promise.all([
      tx.objectStore('events').getAll(eventsFrom(record.uid, 0)),
      readSessionState(stateStore, record),
    ]);
    const state = clone(scoped.session);
    for (const e of all) applyDelta(state, splitDelta(eventOf(e).actions?.stateDelta).session);
    // Its own creation coming back changes nothing: the app's session objects must not turn stale for it.
    if (JSON.stringify(state) !== JSON.stringify(stored)) {
      const updated: SessionRecord = { ...record, revision: record.revision + 1 };
      await replaceSessionState(stateStore, updated, state);
      tx.objectStore('sessions').put(updated);
      changes.push(change('appended', updated, []));
    }
    tx.objectStore('syncSessions').put({
      ...userOf(key),
      id: key[2],
      uid: record.uid,
      syncedNext: 0,
      serverPos: 0,
      syncedState: scoped.session,
    });
  }
  await tx.done;
  return changes;
}

export const userOf = ([appName, userId]: Key): UserKey => ({ appName, userId });
