/**
 * Rewinding a session (`rewind`; adk-python's `Runner.rewind_async`, adk-js's `rewindAsync` on its
 * main branch): ONE event is appended and nothing is deleted. It is authored `user`, has a fresh
 * `e-<uuid>` invocation, and `actions.rewindBeforeInvocationId` names the invocation undone: the
 * first event of that invocation (in append order) and every event after it. Its `stateDelta`
 * brings the session's own keys back to their values before that event (keys that had none then
 * set to `null`; `app:` and `user:` keys untouched); its `artifactDelta` names the versions the
 * registered rewind hooks saved (artifacts, see `SessionRewind`). The event, its state and those
 * versions are written in one transaction. The session is read in a snapshot, and the write names
 * the revision it read: a rewind racing another writer is refused as stale and computed again,
 * never applied on a stale read.
 *
 * The state at the rewind point is the session's initial own state (kept when `createSession`
 * made it, see `initialKey`) folded with the deltas of the events before the point, a `null`
 * removing its key. A session whose initial state is not kept (imported, pulled by sync, or made
 * before releases kept it) has it inferred: the keys of its current own state that no event's
 * delta names, with their current values; a key both given at creation and later set by an event
 * then counts as absent at creation. Worker-side only: the page forwards the call.
 */
import { fromWireError, SessionNotFoundError, type WireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { InvocationNotFoundError } from '../core/invocation-not-found.js';
import { setOwn } from '../core/json.js';
import { jsonEqual } from '../core/json-equal.js';
import { type StateRecord, splitDelta } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import type { Database, NamedVersions } from '../database/database.js';
import { bound } from '../database/idb/index.js';
import { eventOf, type StoreName } from '../database/records/index.js';
import { initialKey, readSessionState } from '../database/records/state.js';
import type { Event, RewindRequest } from '../types.js';
import { writeBatch } from './append.js';

/** How often a rewind that lost a race to another writer reads the session again. */
const ATTEMPTS = 5;

/** What a rewind wrote: the event, and the change notice to send. */
interface Rewound {
  event: Event;
  change: StoreChange | undefined;
}

const ownDelta = (event: Event): StateRecord => splitDelta(event.actions?.stateDelta).session;

/** `delta` applied to `state` (changed in place), a `null` value removing its key. */
function fold(state: StateRecord, delta: StateRecord): void {
  for (const key of Object.keys(delta)) {
    if (delta[key] === null) delete state[key];
    else setOwn(state, key, delta[key]);
  }
}

/** A session's initial own state when none was kept: its current keys no event's delta names. */
function inferredInitial(current: StateRecord, events: readonly Event[]): StateRecord {
  const named = new Set<string>();
  for (const e of events) for (const key of Object.keys(ownDelta(e))) named.add(key);
  const initial: StateRecord = {};
  for (const key of Object.keys(current)) if (!named.has(key)) setOwn(initial, key, current[key]);
  return initial;
}

/** The delta that takes the session's own state from `current` to `point` (`null` for a key `point` lacks). */
function deltaTo(point: StateRecord, current: StateRecord): StateRecord {
  const delta: StateRecord = {};
  for (const key of Object.keys(point)) {
    if (!Object.hasOwn(current, key) || !jsonEqual(current[key], point[key])) setOwn(delta, key, point[key]);
  }
  // A key already `null` needs no second `null`.
  for (const key of Object.keys(current)) {
    if (!Object.hasOwn(point, key) && current[key] !== null) setOwn(delta, key, null);
  }
  return delta;
}

/** The artifact versions `events` name, folded in order. */
function versionsOf(events: readonly Event[]): NamedVersions {
  const versions: NamedVersions = {};
  for (const e of events) {
    const delta = e.actions?.artifactDelta ?? {};
    for (const name of Object.keys(delta)) setOwn(versions, name, delta[name]);
  }
  return versions;
}

/** The session's record, all its events, its own state and its kept initial state, in one snapshot. */
function readSession(database: Database, { appName, userId, sessionId }: RewindRequest) {
  return database.transact(async (db) => {
    const tx = db.transaction(['sessions', 'events', 'state'], 'readonly');
    const state = tx.objectStore('state');
    const [record, initial] = await Promise.all([
      tx.objectStore('sessions').get([appName, userId, sessionId]),
      state.get(initialKey(appName, userId, sessionId)),
    ]);
    if (!record) return undefined;
    const [stored, own] = await Promise.all([
      tx.objectStore('events').getAll(bound([record.uid, 0], [record.uid, Number.POSITIVE_INFINITY])),
      readSessionState(state, record),
    ]);
    return { record, events: stored.map(eventOf), own, initial: initial?.v as StateRecord | undefined };
  });
}

type Read = NonNullable<Awaited<ReturnType<typeof readSession>>>;

/** The rewind event `read` calls for, without its `artifactDelta` (the hooks write it); and the versions at the point and latest. */
function plan(read: Read, before: string) {
  const index = read.events.findIndex((e) => e.invocationId === before);
  if (index < 0) throw new InvocationNotFoundError(`Invocation ID not found: ${before}`);
  const earlier = read.events.slice(0, index);
  const point: StateRecord = {};
  fold(point, read.initial ?? inferredInitial(read.own, read.events));
  for (const e of earlier) fold(point, ownDelta(e));
  const event: Event = {
    id: newId(),
    invocationId: `e-${newId()}`,
    author: 'user',
    timestamp: Math.max(Date.now(), read.record.lastUpdateTime),
    actions: {
      stateDelta: deltaTo(point, read.own),
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
      rewindBeforeInvocationId: before,
    },
  };
  return { event, atPoint: versionsOf(earlier), latest: versionsOf(read.events) };
}

/** Writes the rewind in one transaction, on the revision `read` saw; rejects with `StaleSessionError` if it moved. */
async function write(
  database: Database,
  request: RewindRequest,
  read: Read,
  planned: ReturnType<typeof plan>,
  durability: IDBTransactionDurability,
): Promise<Rewound> {
  const hooks = database.sessionRewinds;
  const writers = await Promise.all(hooks.map((h) => h.load()));
  const { appName, userId, sessionId } = request;
  const { event, atPoint, latest } = planned;
  return database.transact(async (db) => {
    const names: StoreName[] = ['sessions', 'events', 'state', ...hooks.flatMap((h) => h.stores)];
    const tx = db.transaction([...new Set(names)], 'readwrite', { durability });
    try {
      const record = await tx.objectStore('sessions').get([appName, userId, sessionId]);
      const session = { appName, userId, id: sessionId };
      const artifactDelta: NamedVersions = {};
      for (const written of await Promise.all(writers.map((w) => w(tx, session, atPoint, latest)))) {
        for (const name of Object.keys(written)) setOwn(artifactDelta, name, written[name]);
      }
      (event.actions as NonNullable<Event['actions']>).artifactDelta = artifactDelta;
      const { uid, revision, lastUpdateTime } = read.record;
      const batch = { appName, userId, sessionId, ref: { uid, revision }, lastUpdateTime, events: [event] };
      const result = writeBatch(tx, batch, record, new Map());
      const failed = result.error ?? result.outcome?.results[0];
      if (failed) throw failed instanceof Error ? failed : fromWireError(failed as WireError);
      await tx.done;
      return { event, change: result.change };
    } catch (error) {
      // Nothing of a rewind that failed half-way may commit: not its artifact versions either.
      await tx.abandon();
      throw error;
    }
  });
}

/**
 * Rewinds the session before `request.beforeInvocationId`, tells subscribers, and resolves the
 * rewind event. The session engine's memory of the record (`SessionEngine.records`) is left as it
 * was: an append on a remembered record that the rewind moved on is caught there as stale.
 */
export async function rewind(
  database: Database,
  request: RewindRequest,
  durability: IDBTransactionDurability,
): Promise<Event> {
  for (let attempt = 1; ; attempt++) {
    const read = await readSession(database, request);
    if (!read) {
      throw new SessionNotFoundError(
        `Session not found: ${request.sessionId} (app "${request.appName}", user "${request.userId}")`,
      );
    }
    try {
      const { event, change } = await write(
        database,
        request,
        read,
        plan(read, request.beforeInvocationId),
        durability,
      );
      if (change) database.announce([change]);
      return event;
    } catch (error) {
      // Another writer got there first (another tab appending): read again, and rewind on what it wrote.
      if ((error as { code?: string }).code !== 'STALE_SESSION' || attempt === ATTEMPTS) throw error;
    }
  }
}
