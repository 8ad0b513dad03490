/**
 * Time travel: every scope's state as it was after one event, rebuilt from the
 * session's events' `stateDelta`s and its current state.
 *
 * A key's value after event `i` is the last value an event up to `i` set. A key
 * no event of the session sets keeps its current value throughout: for the
 * session scope that is the state the session was created with; for `app:` and
 * `user:` keys it is today's value, which other sessions may have changed since
 * (they share those scopes, and this view reads one session's events only). A
 * key the session first sets after `i` had, before that, a value this session
 * cannot know (its creation state or another session's write): it is shown as
 * unknown, never guessed.
 */
import { jsonEqual } from '../../core/json-equal.js';
import { APP_PREFIX, type Event, TEMP_PREFIX, USER_PREFIX } from '../../index.js';

export type Scope = 'app' | 'user' | 'session';
export const SCOPES: readonly Scope[] = ['app', 'user', 'session'];

/** A key's value at a point of the timeline, and where it comes from. */
export type KeyState =
  | { known: true; value: unknown; setBy: number | undefined }
  | { known: false; firstSetBy: number };

export type ScopeState = Map<string, KeyState>;

export function scopeOf(key: string): Scope | undefined {
  if (key.startsWith(TEMP_PREFIX)) return undefined;
  if (key.startsWith(APP_PREFIX)) return 'app';
  if (key.startsWith(USER_PREFIX)) return 'user';
  return 'session';
}

const deltaOf = (event: Event | undefined): Record<string, unknown> => event?.actions?.stateDelta ?? {};

/** Each prefixed key's first writer in the session. */
function firstWrites(events: readonly Event[]): Map<string, number> {
  const first = new Map<string, number>();
  events.forEach((event, index) => {
    for (const key of Object.keys(deltaOf(event))) if (!first.has(key) && scopeOf(key)) first.set(key, index);
  });
  return first;
}

/**
 * Every stored key (prefixed, as the session's state holds them) after event
 * `index` (-1: before the first event), in order of first appearance.
 */
export function stateAfter(
  events: readonly Event[],
  current: Readonly<Record<string, unknown>>,
  index: number,
): Map<string, KeyState> {
  const first = firstWrites(events);
  const state = new Map<string, KeyState>();
  for (const key of Object.keys(current)) {
    if (!scopeOf(key)) continue;
    const firstSetBy = first.get(key);
    state.set(
      key,
      firstSetBy === undefined ? { known: true, value: current[key], setBy: undefined } : { known: false, firstSetBy },
    );
  }
  for (let i = 0; i <= index && i < events.length; i += 1) {
    const delta = deltaOf(events[i]);
    for (const key of Object.keys(delta)) {
      if (scopeOf(key)) state.set(key, { known: true, value: delta[key], setBy: i });
    }
  }
  return state;
}

const PREFIX_LENGTH: Record<Scope, number> = { app: APP_PREFIX.length, user: USER_PREFIX.length, session: 0 };

/** The keys split by scope, prefixes kept off (as the scopes store them). */
export function byScope(state: Map<string, KeyState>): Record<Scope, ScopeState> {
  const scoped: Record<Scope, ScopeState> = { app: new Map(), user: new Map(), session: new Map() };
  for (const [key, value] of state) {
    const scope = scopeOf(key);
    if (scope) scoped[scope].set(key.slice(PREFIX_LENGTH[scope]), value);
  }
  return scoped;
}

/** One key an event sets: its value before and after. */
export interface DiffLine {
  key: string;
  before: KeyState | undefined;
  after: unknown;
  change: 'added' | 'changed' | 'unchanged' | 'first';
}

/** What event `index` changes, against the state just before it. `temp:` keys are left out: they are never stored. */
export function diffOf(
  events: readonly Event[],
  current: Readonly<Record<string, unknown>>,
  index: number,
): DiffLine[] {
  const before = stateAfter(events, current, index - 1);
  const delta = deltaOf(events[index]);
  return Object.keys(delta)
    .filter((key) => scopeOf(key))
    .map((key) => {
      const was = before.get(key);
      const after = delta[key];
      const change =
        was === undefined
          ? 'added'
          : !was.known
            ? 'first'
            : // Compared as values: the same object with its keys in another order is unchanged.
              jsonEqual(was.value, after)
              ? 'unchanged'
              : 'changed';
      return { key, before: was, after, change };
    });
}
