/**
 * Writing ADK's own tables through its own entities (`@google/adk`'s MikroORM schema, by the
 * names it registers), where its `DatabaseSessionService` has no call for what the server needs:
 * many events in one transaction. The rows are the ones ADK's `appendEvent` writes, so ADK's
 * readers (`getSession`, `listSessions`, a Runner, ADK's own tools) cannot tell the difference
 * (test/node/sync/bulk-append.test.ts compares them on both drivers). One difference, on purpose:
 * a `__proto__` state key is kept as a plain key, where ADK's own write loses it.
 */
import type { Event as AdkEvent } from '@google/adk';
import { type EntityManager, LockMode } from '@mikro-orm/core';
import { setOwn } from '../src/core/json.js';
import { withoutTemp } from '../src/core/state.js';
import type { EventRewrite, SessionKey } from './database.js';

/** The columns of ADK's entities that are written here. */
interface StoredSession {
  state: Record<string, unknown>;
  updateTime: Date;
}
interface StoredState {
  state: Record<string, unknown>;
}
interface StoredEvent {
  id: string;
  timestamp: Date;
  eventData: AdkEvent;
}

const APP = 'app:';
const USER = 'user:';

/** ADK's `appendEvent` for each of `events` in turn, as one transaction on `em`. */
export async function appendToAdk(em: EntityManager, { appName, userId, sessionId }: SessionKey, events: AdkEvent[]) {
  const session = await em.findOne<StoredSession>('StorageSession', { appName, userId, id: sessionId } as never, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  if (!session) throw new Error(`Session ${sessionId} not found for appendEvent`);
  const app =
    (await em.findOne<StoredState>('StorageAppState', { appName } as never)) ??
    em.create<StoredState>('StorageAppState', { appName, state: {}, updateTime: new Date() } as never);
  const user =
    (await em.findOne<StoredState>('StorageUserState', { appName, userId } as never)) ??
    em.create<StoredState>('StorageUserState', { appName, userId, state: {} } as never);
  // ADK stores nothing of a partial event, not even its state writes.
  const whole = events.filter((e) => !e.partial);
  // A row of an id already stored is rewritten, as ADK does (a push retried after its log write failed).
  const stored = new Map(
    (
      await storedEvents(
        em,
        { appName, userId, sessionId },
        whole.map((e) => e.id),
      )
    ).map((row) => [row.id, row]),
  );
  // New objects, as ADK's writes make: MikroORM sees a JSON column change by its value.
  const scopes = { app: { ...app.state }, user: { ...user.state }, session: { ...session.state } };
  const changed = new Set<keyof typeof scopes>();
  for (const event of whole) {
    const delta = withoutTemp(event.actions?.stateDelta ?? {});
    const trimmed = event.actions?.stateDelta ? { ...event, actions: { ...event.actions, stateDelta: delta } } : event;
    for (const [key, value] of Object.entries(delta)) {
      const scope = key.startsWith(APP) ? 'app' : key.startsWith(USER) ? 'user' : 'session';
      setOwn(scopes[scope], scope === 'session' ? key : key.slice(scope.length + 1), value);
      changed.add(scope);
    }
    const row = stored.get(trimmed.id);
    if (row) {
      row.eventData = trimmed;
      row.timestamp = new Date(trimmed.timestamp);
      continue;
    }
    em.create('StorageEvent', {
      id: trimmed.id,
      appName,
      userId,
      sessionId,
      invocationId: trimmed.invocationId,
      timestamp: new Date(trimmed.timestamp),
      eventData: trimmed,
    } as never);
  }
  if (changed.has('app')) app.state = scopes.app;
  if (changed.has('user')) user.state = scopes.user;
  if (changed.has('session')) session.state = scopes.session;
  const last = whole.at(-1);
  if (last) session.updateTime = new Date(last.timestamp);
}

/** Rewrites the session's stored events `ids` through `rewrite` (`undefined`: left as they are). */
export async function rewriteInAdk(em: EntityManager, { ids, rewrite, ...key }: EventRewrite): Promise<void> {
  for (const row of await storedEvents(em, key, ids)) {
    const next = rewrite(row.eventData);
    if (next) row.eventData = next;
  }
}

/** The session's stored rows of `ids`, managed by `em` (what is assigned to them is written at its commit). */
async function storedEvents(em: EntityManager, { appName, userId, sessionId }: SessionKey, ids: string[]) {
  const rows: StoredEvent[] = [];
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    // ADK's entity, by the name it registers; `eventData` goes through its own JSON mapping.
    rows.push(
      ...(await em.find<StoredEvent>('StorageEvent', { appName, userId, sessionId, id: { $in: chunk } } as never)),
    );
  }
  return rows;
}
