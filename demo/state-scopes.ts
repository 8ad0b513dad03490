/**
 * A session's merged state, taken apart by scope, with the event that last set
 * each key (searched in the events the page loaded, newest first).
 */
import { APP_PREFIX, type Event, type Session, TEMP_PREFIX, USER_PREFIX } from '../src/index.js';

export type Scope = 'app' | 'user' | 'session' | 'temp';

export const SCOPES: readonly Exclude<Scope, 'temp'>[] = ['app', 'user', 'session'];

export function scopeOf(key: string): Scope {
  if (key.startsWith(APP_PREFIX)) return 'app';
  if (key.startsWith(USER_PREFIX)) return 'user';
  if (key.startsWith(TEMP_PREFIX)) return 'temp';
  return 'session';
}

/** The key without its scope prefix: how the shared scopes store it. */
export function bareKey(key: string): string {
  const scope = scopeOf(key);
  return scope === 'session' ? key : key.slice(scope.length + 1);
}

export interface StateEntry {
  key: string;
  name: string;
  scope: Scope;
  value: unknown;
  /** The loaded event that set the key last; absent when none of them did. */
  setBy: Event | undefined;
}

export function stateByScope(session: Session): Record<Exclude<Scope, 'temp'>, StateEntry[]> {
  const lastSetter = new Map<string, Event>();
  for (let i = session.events.length - 1; i >= 0; i--) {
    const event = session.events[i] as Event;
    for (const key of Object.keys(event.actions?.stateDelta ?? {})) {
      if (!lastSetter.has(key)) lastSetter.set(key, event);
    }
  }
  const grouped: Record<Exclude<Scope, 'temp'>, StateEntry[]> = { app: [], user: [], session: [] };
  for (const key of Object.keys(session.state).sort()) {
    const scope = scopeOf(key);
    if (scope === 'temp') continue;
    grouped[scope].push({ key, name: bareKey(key), scope, value: session.state[key], setBy: lastSetter.get(key) });
  }
  return grouped;
}

/** An event's state delta as (scope, key, value) triples, in the delta's order. */
export function deltaEntries(event: Event): { key: string; name: string; scope: Scope; value: unknown }[] {
  const delta = event.actions?.stateDelta ?? {};
  return Object.keys(delta).map((key) => ({ key, name: bareKey(key), scope: scopeOf(key), value: delta[key] }));
}
