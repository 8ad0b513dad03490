/**
 * What an erased event is, and how it is told apart (pure; no store needed: the sync server erases
 * its copies by the same rule). `erase` keeps an event's place, id,
 * invocation, author and time and removes what it said; it leaves one mark in its
 * `customMetadata`, under `ERASED_METADATA_KEY`: `{ at }`, the epoch ms of the erase. The mark is
 * ordinary event data, so it travels wherever the event does: exports and imports, sync, ADK's
 * own session services.
 *
 * Of its state delta an erased event keeps the writes still in effect when it was erased (`inEffect`):
 * their values are in the session's state anyway, so keeping them shows nothing the state does not,
 * and the state stays the fold of the events' deltas on every copy, one that pulls the session
 * later included. Which writes those are is decided once, by the first copy erased; every other
 * copy takes that delta as data (sync carries it), never working it out again from another state.
 */
import { setOwn } from '../core/json.js';
import { jsonEqual } from '../core/json-equal.js';
import type { StateRecord } from '../core/state.js';
import type { Event } from '../types.js';

/** The `customMetadata` key of an erased event's mark, `{ at: number }` (epoch ms). */
export const ERASED_METADATA_KEY = 'erased';

/** Whether `event` was erased by `erase` (its content and other data are gone); for a UI that shows "erased". */
export function isErased(event: Pick<Event, 'customMetadata'>): boolean {
  const mark = event.customMetadata?.[ERASED_METADATA_KEY];
  return typeof mark === 'object' && mark !== null && typeof (mark as { at?: unknown }).at === 'number';
}

/** When `event` was erased (epoch ms), or `undefined` when it was not. */
export function erasedAt(event: Pick<Event, 'customMetadata'>): number | undefined {
  return isErased(event) ? (event.customMetadata?.[ERASED_METADATA_KEY] as { at: number }).at : undefined;
}

/**
 * What an erased event keeps: where it is, whose it was, when, and how its turn went; nothing it
 * said. No `content` at all, not even its role: ADK's context builder (adk-js 2.0.0 `getContents`)
 * leaves out an event without a role, where one with a role and no parts would reach the model as
 * an empty message, which model APIs refuse. No compaction fields either: a compaction whose summary
 * is gone is no compaction, and a read from the latest compaction starts at the one before.
 */
const KEPT = [
  'id',
  'invocationId',
  'author',
  'timestamp',
  'branch',
  'partial',
  'turnComplete',
  'interrupted',
  'errorCode',
] as const;

/** The actions an erased event keeps: the agent hand-offs, the rewind it was, the artifact versions it names. */
const KEPT_ACTIONS = [
  'artifactDelta',
  'transferToAgent',
  'escalate',
  'skipSummarization',
  'endOfAgent',
  'rewindBeforeInvocationId',
] as const;

/**
 * The entries of `delta` whose key `current` holds with a deep-equal value, values taken from
 * `delta` (`__proto__` a plain key). With the state at erase time as `current`: the writes of an
 * event still in effect. With a delta another copy claims as `current`: what of it the original
 * really wrote, so a claim cannot add a write.
 */
export function inEffect(delta: StateRecord | undefined, current: StateRecord): StateRecord {
  const kept: StateRecord = {};
  for (const key of Object.keys(delta ?? {})) {
    const value = (delta as StateRecord)[key];
    if (Object.hasOwn(current, key) && jsonEqual(value, current[key])) setOwn(kept, key, value);
  }
  return kept;
}

/**
 * `event` erased at `at` (epoch ms), keeping `stateDelta` (the writes still in effect, see
 * `inEffect`; the caller decides them): `KEPT` fields as they were, `actions` reduced to
 * `KEPT_ACTIONS` with that `stateDelta` and empty `requestedAuthConfigs` and
 * `requestedToolConfirmations`, and `customMetadata` holding only the mark.
 */
export function erasedForm(event: Event, at: number, stateDelta: StateRecord): Event {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (Object.hasOwn(event, key)) out[key] = event[key];
  if (event.actions) {
    const actions: Record<string, unknown> = {
      stateDelta: { ...stateDelta },
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    };
    for (const key of KEPT_ACTIONS) if (Object.hasOwn(event.actions, key)) actions[key] = event.actions[key];
    out.actions = actions;
  }
  out.customMetadata = { [ERASED_METADATA_KEY]: { at } };
  return out as Event;
}
