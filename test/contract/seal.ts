/**
 * `sealInterrupted` over random histories: what it appends answers exactly the function calls of
 * the session's last invocation that no response in it answers, each in an event of its issuer's
 * author and branch in adk-js's `INVOCATION_ABORTED` shape; sealing again appends nothing. Run on
 * every kind of store.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event, SessionStore } from '../../src/index.js';

const T = 1_700_000_000_000;
const ABORT = 'Invocation was aborted by client.';

interface Step {
  kind: 'call' | 'respond' | 'loose';
  author: 'a' | 'b';
  branch: string | undefined;
  calls: number;
  answer: number[];
}

const step = fc.record({
  kind: fc.constantFrom('call', 'call', 'respond', 'loose'),
  author: fc.constantFrom('a', 'b'),
  branch: fc.constantFrom(undefined, 'root.b'),
  calls: fc.integer({ min: 1, max: 3 }),
  answer: fc.array(fc.nat(20), { maxLength: 3 }),
}) as fc.Arbitrary<Step>;
const history = fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 });

/** The events of a history, and the ids the last invocation leaves dangling with their issuers. */
function play(invocations: Step[][]): { events: Event[]; dangling: Map<string, string> } {
  const events: Event[] = [];
  let n = 0;
  let dangling = new Map<string, string>();
  invocations.forEach((steps, inv) => {
    const invocationId = `inv${inv}`;
    const open = new Map<string, string>();
    for (const s of steps) {
      const at = T + n;
      if (s.kind === 'loose') {
        // A chat UI's message, or adk-js's compaction event: no invocation of its own.
        events.push({ id: `x${n++}`, invocationId: '', timestamp: at, author: 'ui' });
        continue;
      }
      if (s.kind === 'call') {
        const ids = Array.from({ length: s.calls }, (_, k) => `c${n}-${k}`);
        for (const id of ids) open.set(id, JSON.stringify([s.author, s.branch ?? null]));
        events.push({
          id: `e${n++}`,
          invocationId,
          author: s.author,
          ...(s.branch && { branch: s.branch }),
          timestamp: at,
          content: { role: 'model', parts: ids.map((id) => ({ functionCall: { id, name: 'tool', args: {} } })) },
        });
        continue;
      }
      const pending = [...open.keys()];
      const answered = [...new Set(s.answer.map((i) => pending[i % Math.max(1, pending.length)]))].filter(
        (id): id is string => id !== undefined,
      );
      if (answered.length === 0) continue;
      for (const id of answered) open.delete(id);
      events.push({
        id: `e${n++}`,
        invocationId,
        author: s.author,
        timestamp: at,
        content: {
          role: 'user',
          parts: answered.map((id) => ({ functionResponse: { id, name: 'tool', response: {} } })),
        },
      });
    }
    // The last invocation is the last one that stored an event.
    if (events.some((e) => e.invocationId === invocationId)) dangling = open;
  });
  return { events, dangling };
}

export function describeSeal(where: string, open: () => SessionStore): void {
  describe(`sealInterrupted, ${where}`, () => {
    it('answers exactly the dangling calls of the last invocation, in adk-js’s abort shape; twice appends nothing', async () => {
      const store = open();
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(history, async (invocations) => {
            const { events, dangling } = play(invocations);
            const key = { appName: 'seal', userId: 'u', sessionId: `s${run++}` };
            const session = await store.createSession(key);
            await store.appendEvents({ session, events });
            const sealed = await store.sealInterrupted(key);
            const answered = new Map<string, string>();
            for (const e of sealed) {
              expect(e).toMatchObject({
                errorCode: 'INVOCATION_ABORTED',
                errorMessage: ABORT,
                content: { role: 'user' },
              });
              expect(e.invocationId).toBe(events.findLast((x) => x.invocationId)?.invocationId);
              for (const p of e.content?.parts ?? []) {
                expect(p.functionResponse?.response).toEqual({ error: ABORT });
                answered.set(p.functionResponse?.id as string, JSON.stringify([e.author, e.branch ?? null]));
              }
            }
            expect(answered).toEqual(dangling);
            // One event per issuer.
            expect(new Set(answered.values()).size).toBe(sealed.length);
            const stored = await store.getSession(key);
            expect(stored?.events).toEqual([...events, ...sealed]);
            expect(await store.sealInterrupted(key)).toEqual([]);
            expect((await store.getSession(key))?.events).toHaveLength(events.length + sealed.length);
          }),
          { numRuns: 60 },
        );
      } finally {
        await store.close();
      }
    }, 60_000);

    it('does nothing for a session that does not exist', async () => {
      const store = open();
      expect(await store.sealInterrupted({ appName: 'seal', userId: 'u', sessionId: 'none' })).toEqual([]);
      await store.close();
    });
  });
}
