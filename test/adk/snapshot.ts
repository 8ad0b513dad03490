/**
 * What the differential test compares: everything a session service returns
 * after a phase, as plain JSON, with generated ids replaced by names given in
 * order of first appearance (`event#3`, `invocation#1`). Timestamps are kept:
 * the clock is pinned, so they must match exactly.
 */
import type { Event as AdkEvent, Session as AdkSession, BaseSessionService } from '@google/adk';
import { APP, SESSIONS } from './scenario.js';

type Json = Record<string, unknown>;

export interface SessionView {
  id: string;
  userId: string;
  state: Json;
  events: Json[];
  lastUpdateTime: number;
}

export interface Listed {
  id: string;
  userId: string;
  lastUpdateTime: number;
  state: Json;
}

export interface Snapshot {
  /** Keyed `user/session`. */
  sessions: Record<string, SessionView>;
  /** `numRecentEvents: 3`. */
  recent: Record<string, Json[]>;
  /** `afterTimestamp` = the timestamp of the session's third event. */
  after: Record<string, Json[]>;
  /** `listSessions` of one user (newest first), of the app (oldest first), and a page of it. */
  listings: { alice: Listed[]; app: Listed[]; page: Listed[] };
  /** What `runAsync` yielded, turn by turn. */
  yielded: Json[][];
}

/** Names generated ids by order of first appearance, the same way on every service. */
export class IdNames {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  name(kind: string, raw: string): string {
    const key = `${kind}\u0000${raw}`;
    let name = this.names.get(key);
    if (!name) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      name = `${kind}#${n}`;
      this.names.set(key, name);
    }
    return name;
  }

  /** A plain-JSON copy (symbol keys and undefined fields dropped, as in ADK's JSON API) with ids named. */
  event(event: AdkEvent): Json {
    const plain = JSON.parse(JSON.stringify(event)) as Json;
    plain.id = this.name('event', String(plain.id));
    if (plain.invocationId) plain.invocationId = this.name('invocation', String(plain.invocationId));
    // Calls ADK makes itself (a confirmation request) get generated ids: `adk-<uuid>`.
    const parts = (plain.content as { parts?: Record<string, { id?: string }>[] } | undefined)?.parts ?? [];
    for (const part of parts) {
      for (const call of [part.functionCall, part.functionResponse]) {
        if (call?.id?.startsWith('adk-')) call.id = this.name('call', call.id);
      }
    }
    if (Array.isArray(plain.longRunningToolIds)) {
      plain.longRunningToolIds = plain.longRunningToolIds.map((id: string) =>
        id.startsWith('adk-') ? this.name('call', id) : id,
      );
    }
    return plain;
  }
}

function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

function keyOf(userId: string, sessionId: string): string {
  return `${userId}/${sessionId}`;
}

function listed(sessions: AdkSession[]): Listed[] {
  return sessions.map((s) => ({ id: s.id, userId: s.userId, lastUpdateTime: s.lastUpdateTime, state: plain(s.state) }));
}

export async function snapshot(service: BaseSessionService, yielded: AdkEvent[][]): Promise<Snapshot> {
  const names = new IdNames();
  const result: Snapshot = {
    sessions: {},
    recent: {},
    after: {},
    listings: { alice: [], app: [], page: [] },
    yielded: [],
  };
  for (const { userId, sessionId } of SESSIONS) {
    const request = { appName: APP, userId, sessionId };
    const full = await service.getSession(request);
    if (!full) throw new Error(`session ${keyOf(userId, sessionId)} is missing`);
    const key = keyOf(userId, sessionId);
    result.sessions[key] = {
      id: full.id,
      userId: full.userId,
      state: plain(full.state),
      events: full.events.map((e) => names.event(e)),
      lastUpdateTime: full.lastUpdateTime,
    };
    const recent = await service.getSession({ ...request, config: { numRecentEvents: 3 } });
    result.recent[key] = (recent?.events ?? []).map((e) => names.event(e));
    const third = full.events[2];
    if (third) {
      const after = await service.getSession({ ...request, config: { afterTimestamp: third.timestamp } });
      result.after[key] = (after?.events ?? []).map((e) => names.event(e));
    }
  }
  result.listings.alice = listed(
    (await service.listSessions({ appName: APP, userId: 'alice', order: 'desc' })).sessions,
  );
  result.listings.app = listed((await service.listSessions({ appName: APP, order: 'asc' })).sessions);
  result.listings.page = listed(
    (await service.listSessions({ appName: APP, order: 'asc', limit: 3, page: 2 })).sessions,
  );
  result.yielded = yielded.map((turn) => turn.map((e) => names.event(e)));
  return result;
}
