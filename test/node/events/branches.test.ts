/**
 * `branchPoints` against a model of what a chat user sees, over random histories of turns, edits
 * (rewinds to before a turn of the conversation) and switches between alternatives: the current
 * conversation is `withoutRewound`'s; a point's alternatives are every event that ever followed the
 * same conversation there, oldest first; switching to one brings back the conversation exactly as
 * it was when it was last shown. Pure: no store (test/contract/branches.ts runs one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { branchPoints, type Event, withoutRewound } from '../../../src/index.js';

type Op = { type: 'turn'; size: number } | { type: 'rewind'; pick: number } | { type: 'switch'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ type: fc.constant('turn' as const), size: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ type: fc.constant('rewind' as const), pick: fc.nat() }),
  fc.record({ type: fc.constant('switch' as const), pick: fc.nat() }),
);

const rewindEvent = (id: string, target: string): Event => ({
  id,
  invocationId: id,
  author: 'user',
  timestamp: 0,
  actions: { rewindBeforeInvocationId: target },
});

/** What the model says the branch points of `current` are, from every conversation shown so far. */
function expectedPoints(shown: readonly string[][], current: readonly string[]) {
  const points = new Map<string, { alternatives: string[]; current: number }>();
  current.forEach((id, k) => {
    const next: string[] = [];
    for (const path of shown) {
      const follower = path[k];
      if (follower === undefined || next.includes(follower)) continue;
      if (path.slice(0, k).every((x, i) => x === current[i])) next.push(follower);
    }
    if (next.length > 1) points.set(id, { alternatives: next, current: next.indexOf(id) });
  });
  return points;
}

describe('branchPoints', () => {
  it('has no point in a history without rewinds', () => {
    const events: Event[] = ['a', 'b'].map((id) => ({ id, invocationId: id, author: 'user', timestamp: 0 }));
    expect(branchPoints(events).size).toBe(0);
    expect(branchPoints([]).size).toBe(0);
  });

  it('matches a model of the conversations shown, and switching brings one back as it was left', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const events: Event[] = [];
        let current: string[] = [];
        const shown: string[][] = [];
        let k = 0;
        for (const step of ops) {
          if (step.type === 'turn') {
            const invocationId = `t${k++}`;
            for (let i = 0; i < step.size; i++) {
              const id = `${invocationId}.${i}`;
              events.push({ id, invocationId, author: 'user', timestamp: 0 });
              current = [...current, id];
            }
          } else if (step.type === 'rewind') {
            const turns = [...new Set(current.map((id) => id.split('.')[0] as string))];
            const target = turns[step.pick % Math.max(1, turns.length)];
            if (target === undefined) continue;
            events.push(rewindEvent(`r${k++}`, target));
            current = current.slice(
              0,
              current.findIndex((id) => id.startsWith(`${target}.`)),
            );
          } else {
            const choices = [...branchPoints(events).entries()].flatMap(([at, point]) =>
              point.alternatives.filter((a) => a.restoreBefore !== undefined).map((a) => ({ at, ...a })),
            );
            const choice = choices[step.pick % Math.max(1, choices.length)];
            if (!choice?.restoreBefore) continue;
            const depth = current.indexOf(choice.at);
            const left = shown.findLast(
              (path) => path[depth] === choice.eventId && path.slice(0, depth).every((x, i) => x === current[i]),
            );
            events.push(rewindEvent(`r${k++}`, choice.restoreBefore));
            current = [...(left ?? [])];
          }
          shown.push(current);
          expect(withoutRewound(events).map((e) => e.id)).toEqual(current);
          const points = new Map(
            [...branchPoints(events)].map(([id, point]) => [
              id,
              { alternatives: point.alternatives.map((a) => a.eventId), current: point.current },
            ]),
          );
          expect(points).toEqual(expectedPoints(shown, current));
        }
      }),
      { numRuns: 300 },
    );
  });
});
