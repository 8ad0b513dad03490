/**
 * A full, canonical dump of what a store holds for a known set of apps and
 * users, read only through the public API (listSessions + getSession,
 * getAppState, getUserState). Two dumps are equal as strings exactly when the
 * stores hold the same data: keys are sorted, sessions ordered by user and id.
 */
import type { SessionService } from '../../src/index.js';

/** JSON with object keys sorted by UTF-16 code units. Never builds objects, so `__proto__` keys stay data. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export interface Universe {
  apps: readonly string[];
  users: readonly string[];
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The dump's shape, also built by the model for comparison. */
export interface DumpShape {
  apps: {
    appName: string;
    appState: unknown;
    totalItems: number;
    users: { userId: string; userState: unknown }[];
    sessions: { userId: string; id: string; lastUpdateTime: number; state: unknown; events: unknown[] }[];
  }[];
}

export function sortDump(dump: DumpShape): DumpShape {
  const apps = [...dump.apps].sort((a, b) => byCodeUnits(a.appName, b.appName));
  for (const app of apps) {
    app.users.sort((a, b) => byCodeUnits(a.userId, b.userId));
    app.sessions.sort((a, b) => byCodeUnits(a.userId, b.userId) || byCodeUnits(a.id, b.id));
  }
  return { apps };
}

export async function dumpStore(store: SessionService, universe: Universe): Promise<string> {
  const apps: DumpShape['apps'] = [];
  for (const appName of new Set(universe.apps)) {
    const listed = await store.listSessions({ appName });
    const sessions: DumpShape['apps'][number]['sessions'] = [];
    for (const s of listed.sessions) {
      const full = await store.getSession({ appName, userId: s.userId, sessionId: s.id });
      if (!full) throw new Error(`listed session ${JSON.stringify([appName, s.userId, s.id])} cannot be read`);
      sessions.push({
        userId: full.userId,
        id: full.id,
        lastUpdateTime: full.lastUpdateTime,
        state: full.state,
        events: full.events,
      });
    }
    const users: DumpShape['apps'][number]['users'] = [];
    for (const userId of new Set(universe.users)) {
      users.push({ userId, userState: await store.getUserState({ appName, userId }) });
    }
    apps.push({
      appName,
      appState: await store.getAppState({ appName }),
      totalItems: listed.totalItems,
      users,
      sessions,
    });
  }
  return canonical(sortDump({ apps }));
}
