/**
 * Which events a rewind undid, read from the history alone (pure; no store needed): adk-js's
 * `applyRewinds`. The history is walked from the end; a rewind event (one with
 * `actions.rewindBeforeInvocationId` X) takes itself and every event back to the earliest event
 * of invocation X out, and the walk goes on before them, so a rewind that was itself rewound undoes
 * nothing. A rewind whose invocation has no event before it takes only itself out.
 */
import type { Event } from '../types.js';

/** The index ranges `[from, to]` (inclusive) the rewinds of `events` take out, from the last. */
function rewoundRanges(events: readonly Event[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const target = events[i]?.actions?.rewindBeforeInvocationId;
    if (!target) continue;
    let from = i;
    for (let j = 0; j < i; j++) {
      if (events[j]?.invocationId === target) {
        from = j;
        break;
      }
    }
    ranges.push([from, i]);
    i = from;
  }
  return ranges;
}

/**
 * `events` (in append order) without the events rewinds undid and without the rewind events:
 * what ADK's model sees after `rewind`. A new array of the same event objects; the input is not
 * changed. `AdkSessionService` hands the Runner its sessions so.
 */
export function withoutRewound<E extends Event>(events: readonly E[]): E[] {
  const out = new Set<number>();
  for (const [from, to] of rewoundRanges(events)) for (let i = from; i <= to; i++) out.add(i);
  return events.filter((_, i) => !out.has(i));
}

/**
 * The ids of the events `withoutRewound` leaves out (the undone events and the rewind events), for
 * a UI that greys out what a rewind undid rather than hiding it.
 */
export function rewoundEventIds(events: readonly Event[]): Set<string> {
  const ids = new Set<string>();
  for (const [from, to] of rewoundRanges(events)) {
    for (let i = from; i <= to; i++) ids.add((events[i] as Event).id);
  }
  return ids;
}
