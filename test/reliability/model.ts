/**
 * A deliberately simple in-memory model of the session contract
 * (shared/adk-contract.md): maps and arrays, no IndexedDB, no queues. The
 * model-based tests check the real store against it after every step.
 */
import { type DumpShape, sortDump, type Universe } from './dump.js';

export type Delta = Record<string, unknown>;

/** Sets an own data property, so `__proto__` and friends stay plain keys in the model too. */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

export function applyTo(target: Record<string, unknown>, delta: Delta): void {
  for (const key of Object.keys(delta)) put(target, key, delta[key]);
}

export function withoutTempKeys(delta: Delta): Delta {
  const out: Delta = {};
  for (const key of Object.keys(delta)) if (!key.startsWith('temp:')) put(out, key, delta[key]);
  return out;
}

export interface ModelEvent {
  id: string;
  timestamp: number;
  /** The event as the store must return it: `temp:` keys gone from its delta. */
  stored: Record<string, unknown>;
}

export interface ModelSession {
  appName: string;
  userId: string;
  id: string;
  /** Distinguishes a session from an earlier one deleted under the same id. */
  incarnation: number;
  /** Bumped once per stored event, like the store's revision. */
  revision: number;
  state: Record<string, unknown>;
  events: ModelEvent[];
  lastUpdateTime: number;
}

export interface SessionView {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: unknown[];
  lastUpdateTime: number;
}

export interface ListRequest {
  appName: string;
  userId?: string;
  limit?: number;
  offset?: number;
  page?: number;
  order?: 'asc' | 'desc';
}

const key = (...parts: string[]): string => JSON.stringify(parts);
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class ContractModel {
  private readonly sessions = new Map<string, ModelSession>();
  private readonly apps = new Map<string, Record<string, unknown>>();
  private readonly users = new Map<string, Record<string, unknown>>();
  private incarnations = 0;

  get(appName: string, userId: string, id: string): ModelSession | undefined {
    return this.sessions.get(key(appName, userId, id));
  }

  private appState(appName: string): Record<string, unknown> {
    const found = this.apps.get(appName);
    if (found) return found;
    const created = {};
    this.apps.set(appName, created);
    return created;
  }

  private userState(appName: string, userId: string): Record<string, unknown> {
    const k = key(appName, userId);
    const found = this.users.get(k);
    if (found) return found;
    const created = {};
    this.users.set(k, created);
    return created;
  }

  /** Splits a delta by scope prefix and applies it; `temp:` keys are dropped. */
  private applyScoped(session: ModelSession, delta: Delta): void {
    for (const k of Object.keys(delta)) {
      const v = delta[k];
      if (k.startsWith('temp:')) continue;
      if (k.startsWith('app:')) put(this.appState(session.appName), k.slice(4), v);
      else if (k.startsWith('user:')) put(this.userState(session.appName, session.userId), k.slice(5), v);
      else put(session.state, k, v);
    }
  }

  create(appName: string, userId: string, id: string, state: Delta, lastUpdateTime: number): ModelSession {
    const session: ModelSession = {
      appName,
      userId,
      id,
      incarnation: ++this.incarnations,
      revision: 0,
      state: {},
      events: [],
      lastUpdateTime,
    };
    this.appState(appName);
    this.userState(appName, userId);
    this.applyScoped(session, state);
    this.sessions.set(key(appName, userId, id), session);
    return session;
  }

  delete(appName: string, userId: string, id: string): void {
    this.sessions.delete(key(appName, userId, id));
  }

  /** Stores one event (replacing a stored one with the same id in place) and applies its delta. */
  append(session: ModelSession, event: Record<string, unknown> & { id: string; timestamp: number }): void {
    const actions = event.actions as { stateDelta?: Delta } | undefined;
    const delta = actions?.stateDelta ?? {};
    const stored = structuredClone(event);
    const storedActions = stored.actions as { stateDelta?: Delta } | undefined;
    if (storedActions?.stateDelta) storedActions.stateDelta = withoutTempKeys(storedActions.stateDelta);
    const entry: ModelEvent = { id: event.id, timestamp: event.timestamp, stored };
    const at = session.events.findIndex((e) => e.id === event.id);
    if (at >= 0) session.events[at] = entry;
    else session.events.push(entry);
    session.revision++;
    session.lastUpdateTime = event.timestamp;
    this.applyScoped(session, delta);
  }

  /** The merged state view: session keys, then `app:` and `user:` keys. */
  merged(session: ModelSession): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    applyTo(out, session.state);
    const app = this.apps.get(session.appName) ?? {};
    for (const k of Object.keys(app)) put(out, `app:${k}`, app[k]);
    const user = this.users.get(key(session.appName, session.userId)) ?? {};
    for (const k of Object.keys(user)) put(out, `user:${k}`, user[k]);
    return out;
  }

  /** What `getSession` must return. */
  view(
    session: ModelSession,
    config: { numRecentEvents?: number; afterTimestamp?: number } = {},
  ): SessionView & { eventIds: string[] } {
    let events = session.events;
    if (config.numRecentEvents !== undefined) {
      events = config.numRecentEvents === 0 ? [] : events.slice(-config.numRecentEvents);
    }
    const after = config.afterTimestamp;
    if (after !== undefined) events = events.filter((e) => e.timestamp >= after);
    return {
      id: session.id,
      appName: session.appName,
      userId: session.userId,
      state: this.merged(session),
      events: events.map((e) => e.stored),
      eventIds: events.map((e) => e.id),
      lastUpdateTime: session.lastUpdateTime,
    };
  }

  /** What `listSessions` must return, as views without events. */
  list(request: ListRequest): {
    sessions: SessionView[];
    page: number;
    limit: number;
    totalItems: number;
    totalPages: number;
  } {
    const matching = [...this.sessions.values()].filter(
      (s) => s.appName === request.appName && (request.userId === undefined || s.userId === request.userId),
    );
    const direction = request.order === 'desc' ? -1 : 1;
    matching.sort(
      (a, b) =>
        (a.lastUpdateTime - b.lastUpdateTime) * direction || byCodeUnits(a.id, b.id) || byCodeUnits(a.userId, b.userId),
    );
    const totalItems = matching.length;
    const { limit, offset, page } = request;
    let start: number;
    let end: number;
    let pageOut: number;
    let limitOut: number;
    let totalPages: number;
    if (limit !== undefined) {
      start = page !== undefined ? (page - 1) * limit : (offset ?? 0);
      end = start + limit;
      pageOut = page ?? (limit === 0 ? 1 : Math.floor(start / limit) + 1);
      limitOut = limit;
      totalPages = limit === 0 ? 0 : Math.ceil(totalItems / limit);
    } else {
      start = offset ?? 0;
      end = totalItems;
      pageOut = 1;
      limitOut = totalItems;
      totalPages = totalItems === 0 ? 0 : 1;
    }
    return {
      sessions: matching.slice(start, end).map((s) => {
        const { eventIds: _, ...view } = this.view(s);
        return { ...view, events: [] };
      }),
      page: pageOut,
      limit: limitOut,
      totalItems,
      totalPages,
    };
  }

  /** The dump `dumpStore` must produce for `universe`. */
  dump(universe: Universe): DumpShape {
    const apps: DumpShape['apps'] = [];
    for (const appName of new Set(universe.apps)) {
      const sessions = [...this.sessions.values()]
        .filter((s) => s.appName === appName)
        .map((s) => {
          const v = this.view(s);
          return { userId: s.userId, id: s.id, lastUpdateTime: s.lastUpdateTime, state: v.state, events: v.events };
        });
      apps.push({
        appName,
        appState: this.apps.get(appName) ?? {},
        totalItems: sessions.length,
        users: [...new Set(universe.users)].map((userId) => ({
          userId,
          userState: this.users.get(key(appName, userId)) ?? {},
        })),
        sessions,
      });
    }
    return sortDump({ apps });
  }
}
