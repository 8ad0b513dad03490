/**
 * A state view for one turn of a chat app that does not use ADK: the value /
 * delta semantics of ADK's `State` (what a tool's `context.state` is), over a
 * session's merged state, with the writes turned into the `stateDelta` of the
 * next appended event.
 */
import { InvalidInputError } from '../core/errors.js';
import { checkJson, setOwn } from '../core/json.js';
import type { AppendEventRequest, Event, Session, SessionService } from '../types.js';

function describePath(path: (string | number)[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
}

/**
 * Reads see this turn's writes over the base state; writes are kept as a
 * pending delta. Like ADK's `State`:
 * - `get(key)` returns the pending value if the key was written, else the base value, else the default;
 * - `set(key, value)` records the write (the new value replaces the old one whole; `null` is a value);
 * - `has(key)` is true for a key in the base or in the delta; `hasDelta()` for a pending write;
 * - `temp:` keys are ordinary keys here and go into the delta: the store applies
 *   them to the session object for the rest of the invocation and never stores them.
 *
 * Unlike ADK's `State`, the base record (usually `session.state`) is never
 * written: the store updates the session object when the append commits, so a
 * failed append leaves it as it was. Only own keys count (`__proto__` is a plain key).
 *
 * @example
 * ```ts
 * const turn = new TurnState(session.state);
 * turn.set('user:name', 'Ada');
 * turn.set('temp:draft', reply);
 * await appendWithState(store, session, replyEvent, turn); // the event's stateDelta carries both
 * ```
 */
export class TurnState {
  private delta: Record<string, unknown> = {};

  constructor(private base: Readonly<Record<string, unknown>> = {}) {}

  /** The value of `key` as this turn sees it (a pending write, else the base), or `undefined`. */
  get<T = unknown>(key: string): T | undefined;
  /** The value of `key` as this turn sees it, or `defaultValue` when neither the writes nor the base hold it. */
  get<T>(key: string, defaultValue: T): T;
  get(key: string, defaultValue?: unknown): unknown {
    if (Object.hasOwn(this.delta, key)) return this.delta[key];
    if (Object.hasOwn(this.base, key)) return this.base[key];
    return defaultValue;
  }

  /** Records a write. The value must be plain JSON data; anything else is an `InvalidInputError`, now rather than at append time. */
  set(key: string, value: unknown): void {
    if (typeof key !== 'string') throw new InvalidInputError(`TurnState.set: key must be a string, got ${typeof key}`);
    const problem = checkJson(value);
    if (problem) throw new InvalidInputError(`TurnState.set: ${key}${describePath(problem.path)}: ${problem.why}`);
    setOwn(this.delta, key, value);
  }

  /** Records several writes, as `set` does for each. */
  update(delta: Readonly<Record<string, unknown>>): void {
    for (const key of Object.keys(delta)) this.set(key, delta[key]);
  }

  /** Whether the writes or the base hold `key`. */
  has(key: string): boolean {
    return Object.hasOwn(this.delta, key) || Object.hasOwn(this.base, key);
  }

  /** Whether there are pending writes. */
  hasDelta(): boolean {
    return Object.keys(this.delta).length > 0;
  }

  /** The pending writes, `temp:` keys included: the `stateDelta` for the next event. A copy. */
  toDelta(): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(this.delta)) setOwn(copy, key, this.delta[key]);
    return copy;
  }

  /** The state as this turn sees it: the base with the pending writes over it. A copy. */
  toRecord(): Record<string, unknown> {
    const merged: Record<string, unknown> = {};
    for (const key of Object.keys(this.base)) setOwn(merged, key, this.base[key]);
    for (const key of Object.keys(this.delta)) setOwn(merged, key, this.delta[key]);
    return merged;
  }

  /** Reads from another base from now on (a session reloaded after a `StaleSessionError`), keeping the pending writes. */
  rebase(base: Readonly<Record<string, unknown>>): void {
    this.base = base;
  }

  /** Forgets the pending writes: call once they are stored (`appendWithState` does). */
  commit(): void {
    this.delta = {};
  }
}

/**
 * Appends `event` with the view's pending writes in its `stateDelta` (keys the
 * event sets itself win), then clears them. The view reads from `session.state`
 * from then on. If the append fails, or the event is `partial` (never
 * stored), the writes stay pending: after a failure, reload the session and
 * call again.
 *
 * @returns the stored event (a new object; `event` is not modified).
 */
export async function appendWithState(
  store: Pick<SessionService, 'appendEvent'>,
  session: Session,
  event: Event,
  view: TurnState,
  options: Pick<AppendEventRequest, 'durability'> = {},
): Promise<Event> {
  view.rebase(session.state);
  const stateDelta = view.toDelta();
  const own = event.actions?.stateDelta ?? {};
  for (const key of Object.keys(own)) setOwn(stateDelta, key, own[key]);
  const request: AppendEventRequest = { session, event: { ...event, actions: { ...event.actions, stateDelta } } };
  if (options.durability) request.durability = options.durability;
  const stored = await store.appendEvent(request);
  // A partial event is not stored: its writes must stay pending.
  if (!event.partial) view.commit();
  return stored;
}
