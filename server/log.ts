/**
 * The change log's queries. Every caller holds the user's lock (see
 * SyncService), which is what keeps `seq` dense and a session's `pos` gapless.
 */

import type { Change, Erasure, Positioned } from '../src/sync/wire.js';
import type { Event } from '../src/types.js';
import type { Sql } from './database.js';
import { noticeSql } from './notices.js';

export interface UserKey {
  appName: string;
  userId: string;
}

/** The latest row of a session's current incarnation: its head position and timestamp. */
export interface Head {
  /** `seq` of the incarnation's `created` row. */
  since: number;
  pos: number;
  ts: number;
}

export interface NewRow {
  kind: 'created' | 'event' | 'deleted' | 'erased';
  sessionId: string;
  pos: number;
  eventId: string | null;
  ts: number;
  data: unknown;
}

const num = (v: unknown): number => Number(v);
type Row = Record<string, unknown>;

/** Ids per `IN (...)` list. */
const CHUNK = 200;

/**
 * `read`'s rows for `ids`, read a chunk of them at a time: `among(column)` is the condition
 * `AND column IN (...)` for the chunk, whose ids `read` passes after its own parameters. Without
 * `ids`, one read with no condition.
 */
export async function inChunks(
  ids: string[] | undefined,
  read: (among: (column: string) => string, chunk: string[]) => Promise<Row[]>,
): Promise<Row[]> {
  if (!ids) return read(() => '', []);
  const rows: Row[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    rows.push(...(await read((column) => ` AND ${column} IN (${chunk.map(() => '?').join(', ')})`, chunk)));
  }
  return rows;
}

export class ChangeLog {
  constructor(private readonly sql: Sql) {}

  /** `undefined` when the session does not exist (never created, or deleted last). */
  async head({ appName, userId }: UserKey, sessionId: string): Promise<Head | undefined> {
    // One statement: it runs on every push, under the user's lock.
    const [last] = await this.sql(
      `SELECT kind, pos, ts, (SELECT max(c.seq) FROM sync_changes c WHERE c.app_name = ? AND c.user_id = ? AND c.session_id = ? AND c.kind = 'created') AS since
       FROM sync_changes WHERE app_name = ? AND user_id = ? AND session_id = ? ORDER BY seq DESC LIMIT 1`,
      [appName, userId, sessionId, appName, userId, sessionId],
    );
    if (!last || last.kind === 'deleted') return undefined;
    return { since: num(last.since), pos: num(last.pos), ts: num(last.ts) };
  }

  /** The current incarnation's events after position `after`, in order. */
  async eventsAfter({ appName, userId }: UserKey, sessionId: string, head: Head, after: number): Promise<Positioned[]> {
    const rows = await this.sql(
      "SELECT pos, data FROM sync_changes WHERE app_name = ? AND user_id = ? AND session_id = ? AND kind = 'event' AND seq > ? AND pos > ? ORDER BY seq",
      [appName, userId, sessionId, head.since, after],
    );
    return rows.map((r) => ({ pos: num(r.pos), event: JSON.parse(String(r.data)) as Event }));
  }

  /** Where each of `ids` already stands in the current incarnation. */
  async placed(
    user: UserKey,
    sessionId: string,
    head: Head,
    ids: string[],
  ): Promise<Map<string, { pos: number; ts: number }>> {
    const found = new Map<string, { pos: number; ts: number }>();
    for (const r of await this.eventRows(user, sessionId, head, ids, 'pos, ts')) {
      found.set(String(r.event_id), { pos: num(r.pos), ts: num(r.ts) });
    }
    return found;
  }

  /** The logged copies of `ids` in the current incarnation, with their rows' `seq`. */
  async logged(user: UserKey, sessionId: string, head: Head, ids: string[]): Promise<{ seq: number; event: Event }[]> {
    const rows = await this.eventRows(user, sessionId, head, ids, 'seq, data');
    return rows.map((r) => ({ seq: num(r.seq), event: JSON.parse(String(r.data)) as Event }));
  }

  /** Replaces the logged copy in the user's rows `seq` (an erasure: the row keeps its place). */
  async rewrite({ appName, userId }: UserKey, rows: { seq: number; event: Event }[]): Promise<void> {
    for (const { seq, event } of rows) {
      await this.sql('UPDATE sync_changes SET data = ? WHERE app_name = ? AND user_id = ? AND seq = ?', [
        JSON.stringify(event),
        appName,
        userId,
        seq,
      ]);
    }
  }

  private eventRows(
    { appName, userId }: UserKey,
    sessionId: string,
    head: Head,
    ids: string[],
    columns: string,
  ): Promise<Row[]> {
    return inChunks(ids, (among, chunk) =>
      this.sql(
        `SELECT event_id, ${columns} FROM sync_changes WHERE app_name = ? AND user_id = ? AND session_id = ? AND kind = 'event' AND seq > ?${among('event_id')}`,
        [appName, userId, sessionId, head.since, ...chunk],
      ),
    );
  }

  /**
   * Appends `rows` with the next sequence numbers, resolving with the last: one statement (the
   * user's top read by the insert itself) for up to 100 rows, the usual push. `channel`
   * (Postgres): the same statement announces the new cursor there (`noticeSql`), at the commit.
   */
  async append({ appName, userId }: UserKey, rows: NewRow[], channel?: string): Promise<number> {
    let seq = 0;
    for (let i = 0; i < rows.length; i += 100) {
      const chunk = rows.slice(i, i + 100);
      const params: unknown[] = [appName, userId, appName, userId];
      for (const [k, r] of chunk.entries())
        params.push(k + 1, r.kind, r.sessionId, r.pos, r.eventId, r.ts, JSON.stringify(r.data));
      // VALUES' columns are column1..column7 on both SQLite and Postgres.
      const insert = `INSERT INTO sync_changes (app_name, user_id, seq, kind, session_id, pos, event_id, ts, data)
         SELECT ?, ?, t.top + v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7
         FROM (SELECT coalesce(max(seq), 0) AS top FROM sync_changes WHERE app_name = ? AND user_id = ?) AS t,
           (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}) AS v
         RETURNING seq`;
      const announced = channel !== undefined && i + 100 >= rows.length;
      const inserted = await this.sql(
        announced
          ? `WITH ins AS (${insert}) SELECT max(seq) AS seq, pg_notify(?, ${noticeSql('max(seq)')}) FROM ins`
          : insert,
        announced ? [...params, channel, appName, userId] : params,
      );
      seq = Math.max(seq, ...inserted.map((r) => num(r.seq)));
    }
    return seq;
  }

  /**
   * The user's changes after `after`, at most `limit`. Without `erasures` (a device of a release
   * before them), an `erased` change is a stand-in event at position 0, which such a device passes
   * over as a repeat (see `ERASURES_PARAM` in src/sync/wire.ts).
   */
  async changes({ appName, userId }: UserKey, after: number, limit: number, erasures = true): Promise<Change[]> {
    const rows = await this.sql(
      'SELECT seq, kind, session_id, pos, data FROM sync_changes WHERE app_name = ? AND user_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      [appName, userId, after, limit],
    );
    return rows.map((r): Change => {
      const seq = num(r.seq);
      const sessionId = String(r.session_id);
      if (r.kind === 'event') {
        return { seq, type: 'event', sessionId, pos: num(r.pos), event: JSON.parse(String(r.data)) as Event };
      }
      if (r.kind === 'created') {
        return { seq, type: 'created', sessionId, state: JSON.parse(String(r.data)) as Record<string, unknown> };
      }
      if (r.kind === 'erased') {
        const { erasures: erased } = JSON.parse(String(r.data)) as { erasures: Erasure[] };
        if (erasures) return { seq, type: 'erased', sessionId, erasures: erased };
        const [first] = erased as [Erasure];
        const event = { id: first.id, invocationId: '', author: 'user', timestamp: first.at, actions: {} };
        return { seq, type: 'event', sessionId, pos: 0, event: event as unknown as Event };
      }
      return { seq, type: 'deleted', sessionId };
    });
  }

  async cursor({ appName, userId }: UserKey): Promise<number> {
    const [top] = await this.sql('SELECT max(seq) AS seq FROM sync_changes WHERE app_name = ? AND user_id = ?', [
      appName,
      userId,
    ]);
    return num(top?.seq ?? 0);
  }

  /** The sessions the log holds as existing (of `ids`, or all), each with its last row's position. */
  async livePositions({ appName, userId }: UserKey, ids?: string[]): Promise<Map<string, number>> {
    const rows = await inChunks(ids, (among, chunk) =>
      this.sql(
        `SELECT c.session_id, c.kind, c.pos FROM sync_changes c WHERE c.app_name = ? AND c.user_id = ?${among('c.session_id')} AND c.seq = (SELECT max(d.seq) FROM sync_changes d WHERE d.app_name = c.app_name AND d.user_id = c.user_id AND d.session_id = c.session_id)`,
        [appName, userId, ...chunk],
      ),
    );
    return new Map(rows.filter((r) => r.kind !== 'deleted').map((r) => [String(r.session_id), num(r.pos)]));
  }

  /** The shared state scopes ADK holds, unprefixed; `{}` when absent. */
  async sharedState({
    appName,
    userId,
  }: UserKey): Promise<{ app: Record<string, unknown>; user: Record<string, unknown> }> {
    const [row] = await this.sql(
      'SELECT (SELECT state FROM app_states WHERE app_name = ?) AS app, (SELECT state FROM user_states WHERE app_name = ? AND user_id = ?) AS usr',
      [appName, appName, userId],
    );
    return { app: jsonColumn(row?.app), user: jsonColumn(row?.usr) };
  }
}

/** A JSON column: text on libsql, already parsed on Postgres. */
function jsonColumn(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  const parsed = typeof value === 'string' ? JSON.parse(value) : value;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}
