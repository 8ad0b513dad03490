/**
 * Writing ADK's own tables where its `DatabaseSessionService` has no call for what the server
 * needs: many events in one transaction. The rows are the ones ADK's `appendEvent` writes, so
 * ADK's readers (`getSession`, `listSessions`, a Runner, ADK's own tools) cannot tell the
 * difference (test/node/sync/bulk-append.test.ts compares them on both drivers). Two ways:
 * - libsql: through ADK's own entities (its MikroORM schema, by the names it registers);
 * - Postgres: one statement for a push's events (`appendToAdkSql`), the state deltas merged by
 *   the database (`jsonb ||`, the same shallow merge as ADK's), the event column made by ADK's
 *   own entity type. A push is the sync server's hot path: the entity way sent six statements
 *   and spent more CPU in the ORM than the rest of the push together.
 * One difference, on purpose: a `__proto__` state key is kept as a plain key, where ADK's own
 * write loses it.
 */
import type { Event as AdkEvent } from '@google/adk';
import { type EntityManager, LockMode, type MikroORM } from '@mikro-orm/core';
import { setOwn } from '../src/core/json.js';
import { withoutTemp } from '../src/core/state.js';
import type { EventRewrite, SessionKey, Sql } from './database.js';

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
  const { changed, rows } = foldDeltas(whole, scopes);
  for (const trimmed of rows) {
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

type Scopes = Record<'app' | 'user' | 'session', Record<string, unknown>>;

/**
 * Folds the state deltas of `events`, in order, into `scopes` (`app:`/`user:` keys by their
 * unprefixed names, as ADK keeps them; `temp:` keys left out) and gives the events as ADK stores
 * them: their deltas without `temp:` keys.
 */
function foldDeltas(events: AdkEvent[], scopes: Scopes) {
  const changed = new Set<keyof Scopes>();
  const rows = events.map((event) => {
    const delta = withoutTemp(event.actions?.stateDelta ?? {});
    for (const [key, value] of Object.entries(delta)) {
      const scope = key.startsWith(APP) ? 'app' : key.startsWith(USER) ? 'user' : 'session';
      setOwn(scopes[scope], scope === 'session' ? key : key.slice(scope.length + 1), value);
      changed.add(scope);
    }
    return event.actions?.stateDelta ? { ...event, actions: { ...event.actions, stateDelta: delta } } : event;
  });
  return { changed, rows };
}

/** ADK's own conversion of an event to its `event_data` column (its entity's JSON type). */
export function eventColumnOf(orm: MikroORM): (event: AdkEvent) => string {
  const type = orm.getMetadata().find('StorageEvent')?.properties.eventData?.customType;
  if (!type) throw new Error("ADK's StorageEvent entity has no eventData column type");
  const platform = orm.em.getPlatform();
  return (event) => type.convertToDatabaseValue(event, platform) as string;
}

/** Rows per multi-row insert: 7 parameters each, far below Postgres's 65,535. */
const EVENT_ROWS = 500;

/** Inserts `count` events (an id already stored is rewritten, as ADK does). */
const insertEvents = (count: number) =>
  `INSERT INTO events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
   VALUES ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?::jsonb)').join(', ')}
   ON CONFLICT (id, app_name, user_id, session_id)
   DO UPDATE SET timestamp = excluded.timestamp, event_data = excluded.event_data`;

/**
 * `appendToAdk` on Postgres, in `sql`'s transaction, as one statement for up to `EVENT_ROWS`
 * events (and one more per `EVENT_ROWS` beyond): the session's row locked and its state merged,
 * the app's and user's rows made if missing and merged, the events inserted.
 */
export async function appendToAdkSql(
  sql: Sql,
  eventColumn: (event: AdkEvent) => string,
  { appName, userId, sessionId }: SessionKey,
  events: AdkEvent[],
): Promise<void> {
  const scopes: Scopes = { app: {}, user: {}, session: {} };
  const { rows } = foldDeltas(
    events.filter((e) => !e.partial),
    scopes,
  );
  const last = rows.at(-1);
  // The last of an id counts, as when ADK's appendEvent writes the same id twice.
  const unique = [...new Map(rows.map((e) => [e.id, e])).values()];
  const paramsOf = (chunk: AdkEvent[]) =>
    chunk.flatMap((e) => [e.id, appName, userId, sessionId, e.invocationId, new Date(e.timestamp), eventColumn(e)]);
  const first = unique.slice(0, EVENT_ROWS);
  const now = new Date();
  const [session] = await sql(
    `WITH app AS (
       INSERT INTO app_states (app_name, state, update_time) VALUES (?, ?::jsonb, ?)
       ON CONFLICT (app_name) DO UPDATE SET state = app_states.state || excluded.state,
         update_time = CASE WHEN excluded.state = '{}'::jsonb THEN app_states.update_time ELSE excluded.update_time END
     ), usr AS (
       INSERT INTO user_states (app_name, user_id, state, update_time) VALUES (?, ?, ?::jsonb, ?)
       ON CONFLICT (app_name, user_id) DO UPDATE SET state = user_states.state || excluded.state,
         update_time = CASE WHEN excluded.state = '{}'::jsonb THEN user_states.update_time ELSE excluded.update_time END
     )${first.length > 0 ? `, ev AS (${insertEvents(first.length)})` : ''}
     UPDATE sessions SET state = state || ?::jsonb, update_time = coalesce(?, update_time)
     WHERE app_name = ? AND user_id = ? AND id = ? RETURNING id`,
    [
      appName,
      JSON.stringify(scopes.app),
      now,
      appName,
      userId,
      JSON.stringify(scopes.user),
      now,
      ...paramsOf(first),
      JSON.stringify(scopes.session),
      last ? new Date(last.timestamp) : null,
      appName,
      userId,
      sessionId,
    ],
  );
  // The whole transaction rolls back, the rows written above with it.
  if (!session) throw new Error(`Session ${sessionId} not found for appendEvent`);
  for (let i = EVENT_ROWS; i < unique.length; i += EVENT_ROWS) {
    const chunk = unique.slice(i, i + EVENT_ROWS);
    await sql(insertEvents(chunk.length), paramsOf(chunk));
  }
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
