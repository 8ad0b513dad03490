/**
 * Erasing events (`erase`): hard deletion of what events said, for privacy, beside the
 * non-destructive rewind. Each event named (by id, or every event of an invocation) is replaced in
 * its place by its erased form (`erasedForm`, ./erased.ts): the same id, invocation, author, time and order,
 * without its content or any other data a person could be in, marked in `customMetadata` (see
 * ./erased.ts). The session's state is left as it is (undoing state is rewind's work); each event
 * keeps the writes of its delta still in effect, read in the same transaction from the state the
 * store holds (session keys from the session's, `user:` and `app:` keys from those scopes), unless
 * the caller brings them (sync: another copy decided them). In the same
 * transaction the registered erase hooks remove what other capabilities derived from those events
 * (memory entries, saved search shards). All or nothing: an unknown id or invocation erases nothing.
 *
 * The session's revision does not move: session objects read before stay current, and an agent
 * running on the session goes on appending. `erasures` moves instead, so data derived from the
 * events (the search index) reads the session again. Erasing an erased event changes nothing.
 * Worker-side only: the page forwards the call.
 */
import { SessionNotFoundError } from '../core/errors.js';
import { EventNotFoundError } from '../core/event-not-found.js';
import { InvocationNotFoundError } from '../core/invocation-not-found.js';
import { setOwn } from '../core/json.js';
import { APP_PREFIX, type StateRecord, splitDelta, USER_PREFIX } from '../core/state.js';
import type { StoreChange } from '../database/changes.js';
import type { Database } from '../database/database.js';
import { bound, handled, type Store } from '../database/idb/index.js';
import { type EventRecord, eventOf, eventRecord, type StoreName, type StoreSchema } from '../database/records/index.js';
import { appScope, readSessionState, type SessionHead, type StateStore, userScope } from '../database/records/state.js';
import type { EraseRequest, EraseResult, Event } from '../types.js';
import { erasedForm, inEffect, isErased } from './erased.js';

/** The records `request` names, in session order; throws the family's error for a name the session lacks. */
async function named(events: Store<StoreSchema['events']>, uid: string, request: EraseRequest): Promise<EventRecord[]> {
  const ids = [...new Set(request.eventIds ?? [])];
  const byId = ids.map((id) => handled(events.index('byId').get([uid, id])));
  const all =
    request.invocationId === undefined ? [] : await events.getAll(bound([uid, 0], [uid, Number.POSITIVE_INFINITY]));
  const found = await Promise.all(byId);
  const missing = ids.filter((_, i) => found[i] === undefined);
  if (missing.length > 0) {
    throw new EventNotFoundError(
      `erase: no event ${missing.map((id) => JSON.stringify(id)).join(', ')} in session ${request.sessionId}`,
    );
  }
  const picked = new Map<number, EventRecord>();
  for (const r of found) if (r) picked.set(r.seq, r);
  if (request.invocationId !== undefined) {
    const of = all.filter((r) => eventOf(r).invocationId === request.invocationId);
    if (of.length === 0) throw new InvocationNotFoundError(`Invocation ID not found: ${request.invocationId}`);
    for (const r of of) picked.set(r.seq, r);
  }
  return [...picked.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * The values the store holds now for the keys `events`' deltas write, prefixed as a session shows
 * them: the session's own keys from its state, `user:` and `app:` keys read one by one.
 */
async function currentValues(state: StateStore, record: SessionHead, events: Event[]): Promise<StateRecord> {
  const current: StateRecord = {};
  const reads: Promise<void>[] = [];
  const take = (prefix: string, values: StateRecord) => {
    for (const key of Object.keys(values)) setOwn(current, prefix + key, values[key]);
  };
  const read = (prefix: string, scope: string[], key: string) =>
    reads.push(
      state.get([...scope, key]).then((entry) => {
        if (entry) setOwn(current, prefix + key, entry.v);
      }),
    );
  let own = false;
  for (const event of events) {
    const scoped = splitDelta(event.actions?.stateDelta);
    own ||= Object.keys(scoped.session).length > 0;
    for (const key of Object.keys(scoped.app)) read(APP_PREFIX, appScope(record.appName), key);
    for (const key of Object.keys(scoped.user)) read(USER_PREFIX, userScope(record.appName, record.userId), key);
  }
  if (own) reads.push(readSessionState(state, record).then((values) => take('', values)));
  await Promise.all(reads);
  return current;
}

/**
 * Erases what `request` names in one transaction; tells subscribers; resolves what it erased. `at`
 * is the time the marks carry: sync passes the time of an erase it brings from the server, so every
 * device's copy of an event reads the same, and `kept`, the state delta each event id keeps (`{}`
 * for one it lacks), as the copy erased first decided it; without it the writes still in effect stay.
 */
export async function erase(
  database: Database,
  request: EraseRequest,
  durability: IDBTransactionDurability,
  at = Date.now(),
  kept?: ReadonlyMap<string, StateRecord>,
): Promise<EraseResult> {
  const hooks = database.sessionErasers;
  const writers = await Promise.all(hooks.map((h) => h.load()));
  const { appName, userId, sessionId } = request;
  const { result, change } = await database.transact(async (db) => {
    const names: StoreName[] = ['sessions', 'events', 'state', ...hooks.flatMap((h) => h.stores)];
    const tx = db.transaction([...new Set(names)], 'readwrite', { durability });
    try {
      const record = await tx.objectStore('sessions').get([appName, userId, sessionId]);
      if (!record) {
        throw new SessionNotFoundError(`Session not found: ${sessionId} (app "${appName}", user "${userId}")`);
      }
      const events = tx.objectStore('events');
      const records = await named(events, record.uid, request);
      const erasedNow: string[] = [];
      const toErase = records.map((r) => ({ r, event: eventOf(r) })).filter(({ event }) => !isErased(event));
      const current = kept
        ? undefined
        : await currentValues(
            tx.objectStore('state'),
            record,
            toErase.map(({ event }) => event),
          );
      for (const { r, event } of toErase) {
        const delta = current ? inEffect(event.actions?.stateDelta, current) : (kept?.get(r.id) ?? {});
        events.put(eventRecord(r.uid, r.seq, erasedForm(event, at, delta)));
        erasedNow.push(r.id);
      }
      const eventIds = records.map((r) => r.id);
      const session = { appName, userId, id: sessionId, uid: record.uid };
      // Run on a repeat too: memory added again from a copy read before the erase goes again.
      await Promise.all(writers.map((w) => w(tx, session, eventIds)));
      let change: StoreChange | undefined;
      if (erasedNow.length > 0) {
        const updated = { ...record, erasures: (record.erasures ?? 0) + 1 };
        tx.objectStore('sessions').put(updated);
        change = {
          type: 'erased',
          appName,
          userId,
          sessionId,
          revision: record.revision,
          lastUpdateTime: record.lastUpdateTime,
          eventIds: erasedNow,
          scopes: { app: false, user: false },
        };
      }
      await tx.done;
      const result: EraseResult = { eventIds, erasedNow };
      return { result, change };
    } catch (error) {
      // Nothing of an erase that failed half-way may commit.
      await tx.abandon();
      throw error;
    }
  });
  if (change) database.announce([change]);
  return result;
}
