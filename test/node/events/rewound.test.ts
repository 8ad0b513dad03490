/**
 * `withoutRewound` and `rewoundEventIds` read a history as adk-js's `applyRewinds` (main branch)
 * does: from the end, a rewind event takes itself and everything back to the earliest event of
 * the invocation it names out, then the walk goes on before them.
 */
import { describe, expect, it } from 'vitest';
import { type Event, rewoundEventIds, withoutRewound } from '../../../src/index.js';

let n = 0;
const turn = (invocationId: string, text: string): Event => ({
  id: `e${n++}`,
  invocationId,
  author: 'user',
  timestamp: n,
  content: { role: 'user', parts: [{ text }] },
});
const rewind = (invocationId: string, target: string): Event => ({
  id: `r${n++}`,
  invocationId,
  author: 'user',
  timestamp: n,
  actions: { rewindBeforeInvocationId: target },
});
const texts = (events: Event[]) => events.map((e) => e.content?.parts?.[0]?.text ?? `rewind ${e.id}`);

describe('withoutRewound', () => {
  it('keeps a history without rewinds as it is, and an empty one empty', () => {
    const events = [turn('inv1', 'first'), turn('inv2', 'second')];
    expect(withoutRewound(events)).toEqual(events);
    expect(withoutRewound([])).toEqual([]);
  });

  it('leaves out the rewind event and every event back to the first of its invocation', () => {
    const events = [
      turn('inv1', 'kept before'),
      turn('inv2', 'undone'),
      turn('inv2', 'undone too'),
      turn('inv3', 'undone as well'),
      rewind('inv4', 'inv2'),
      turn('inv5', 'kept after'),
    ];
    expect(texts(withoutRewound(events))).toEqual(['kept before', 'kept after']);
  });

  it('leaves out only the rewind event when its invocation has no event before it', () => {
    const missing = [turn('inv1', 'first'), rewind('inv2', 'nowhere'), turn('inv3', 'last')];
    expect(texts(withoutRewound(missing))).toEqual(['first', 'last']);
    const later = [turn('inv1', 'first'), rewind('inv2', 'inv3'), turn('inv3', 'last')];
    expect(texts(withoutRewound(later))).toEqual(['first', 'last']);
  });

  it('resolves rewinds one after another, and a rewind of a rewind', () => {
    const stacked = [
      turn('inv1', 'kept'),
      turn('inv2', 'undone once'),
      rewind('inv3', 'inv2'),
      turn('inv4', 'undone twice'),
      rewind('inv5', 'inv4'),
      turn('inv6', 'kept after'),
    ];
    expect(texts(withoutRewound(stacked))).toEqual(['kept', 'kept after']);
    // A later rewind to before an earlier one undoes that one as well, and what it had undone stays undone.
    const across = [turn('inv1', 'first'), turn('inv2', 'second'), rewind('inv3', 'inv2'), rewind('inv4', 'inv1')];
    expect(withoutRewound(across)).toEqual([]);
  });

  it('goes back to the earliest event of the invocation named', () => {
    expect(withoutRewound([turn('inv1', 'a'), turn('inv1', 'b'), rewind('inv2', 'inv1')])).toEqual([]);
  });

  it('changes neither its input nor the events, returns the kept events themselves, and is idempotent', () => {
    const kept = turn('inv1', 'kept');
    const events = [kept, turn('inv2', 'undone'), rewind('inv3', 'inv2')];
    const copy = structuredClone(events);
    const result = withoutRewound(events);
    expect(events).toEqual(copy);
    expect(result[0]).toBe(kept);
    expect(withoutRewound(result)).toEqual(result);
  });
});

describe('rewoundEventIds', () => {
  it('names exactly the events withoutRewound leaves out, rewind events included', () => {
    const events = [
      turn('inv1', 'kept'),
      turn('inv2', 'undone'),
      rewind('inv3', 'inv2'),
      turn('inv4', 'kept after'),
      rewind('inv5', 'nowhere'),
    ];
    const ids = rewoundEventIds(events);
    expect(ids).toEqual(new Set([events[1]?.id, events[2]?.id, events[4]?.id]));
    expect(withoutRewound(events)).toEqual(events.filter((e) => !ids.has(e.id)));
  });
});
