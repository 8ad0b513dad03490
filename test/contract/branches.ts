/**
 * Branching conversations on every kind of store, as a chat UI uses them: an edited message and a
 * regenerated reply each leave the old alternative stored and listed by `branchPoints`;
 * `switchBranch` brings an alternative back as it was left (its later turns, its session state,
 * its artifact's bytes), branches inside an alternative survive switching away and back, and ADK's
 * Runner (through `withoutRewound`) sees only the current conversation.
 */
import { describe, expect, it } from 'vitest';
import {
  branchPoints,
  type Event,
  InvalidInputError,
  SessionNotFoundError,
  type SessionStore,
  switchBranch,
  withoutRewound,
} from '../../src/index.js';
import { storeRunner } from './with-store.js';

let n = 0;
const fresh = () => ({ appName: 'branches', userId: 'u', sessionId: `s${n++}` });

/** A message of invocation `inv` by `author`, with these deltas. */
function said(
  inv: string,
  author: string,
  text: string,
  actions: { stateDelta?: Record<string, unknown>; artifactDelta?: Record<string, number> } = {},
): Event {
  return {
    id: `${inv}-${author}-${n++}`,
    invocationId: inv,
    author,
    timestamp: 1_700_000_000_000 + n,
    content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
    actions,
  };
}

const plan = (s: string) => ({ inlineData: { mimeType: 'text/plain', data: btoa(s) } });
const texts = (events: readonly Event[]) => withoutRewound(events).map((e) => e.content?.parts?.[0]?.text);

export function describeBranches(where: string, open: () => SessionStore): void {
  describe(`branches, ${where}`, () => {
    const withStore = storeRunner(open);

    it('keeps an edited message as an alternative and switches back to it with its state and artifact', () =>
      withStore(async (store) => {
        const key = fresh();
        const file = { ...key, filename: 'plan.txt' };
        const session = await store.createSession(key);
        // The first conversation: a trip to Lisbon, whose plan the agent saved as an artifact.
        const lisbon = said('t1', 'user', 'Plan a trip to Lisbon');
        await store.appendEvents({ session, events: [lisbon] });
        await store.artifacts.saveArtifact({ ...file, artifact: plan('Lisbon plan') });
        await store.appendEvents({
          session,
          events: [
            said('t1', 'agent', 'Here is Lisbon', { stateDelta: { city: 'Lisbon' }, artifactDelta: { 'plan.txt': 0 } }),
          ],
        });
        // The message edited: a rewind before its turn, and the new turn.
        await store.rewind({ ...key, beforeInvocationId: 't1' });
        const porto = said('t2', 'user', 'Plan a trip to Porto');
        const edited = await store.getSession(key);
        if (!edited) throw new Error('no session');
        await store.appendEvents({ session: edited, events: [porto] });
        const version = await store.artifacts.saveArtifact({ ...file, artifact: plan('Porto plan') });
        await store.appendEvents({
          session: edited,
          events: [
            said('t2', 'agent', 'Here is Porto', {
              stateDelta: { city: 'Porto' },
              artifactDelta: { 'plan.txt': version },
            }),
          ],
        });

        let events = (await store.getSession(key))?.events ?? [];
        expect(texts(events)).toEqual(['Plan a trip to Porto', 'Here is Porto']);
        const point = branchPoints(events).get(porto.id);
        expect(point?.alternatives.map((a) => a.eventId)).toEqual([lisbon.id, porto.id]);
        expect(point?.current).toBe(1);
        expect(point?.alternatives[1]?.restoreBefore).toBeUndefined();

        await switchBranch(store, { ...key, eventId: lisbon.id });
        let stored = await store.getSession(key);
        events = stored?.events ?? [];
        expect(texts(events)).toEqual(['Plan a trip to Lisbon', 'Here is Lisbon']);
        expect(stored?.state.city).toBe('Lisbon');
        expect(await store.artifacts.loadArtifact(file)).toEqual(plan('Lisbon plan'));
        expect(branchPoints(events).get(lisbon.id)?.current).toBe(0);

        await switchBranch(store, { ...key, eventId: porto.id });
        stored = await store.getSession(key);
        expect(texts(stored?.events ?? [])).toEqual(['Plan a trip to Porto', 'Here is Porto']);
        expect(stored?.state.city).toBe('Porto');
        expect(await store.artifacts.loadArtifact(file)).toEqual(plan('Porto plan'));
      }));

    it('keeps a regenerated reply as an alternative of the reply', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        // One invocation per message, as the AI SDK adapter stores them.
        const question = said('m1', 'user', 'Why is the sky blue?');
        const first = said('m2', 'assistant', 'Rayleigh scattering.');
        await store.appendEvents({ session, events: [question, first] });
        await store.rewind({ ...key, beforeInvocationId: 'm2' });
        const again = said('m3', 'assistant', 'Short wavelengths scatter more.');
        const stored = await store.getSession(key);
        if (!stored) throw new Error('no session');
        await store.appendEvents({ session: stored, events: [again] });
        const events = (await store.getSession(key))?.events ?? [];
        expect(texts(events)).toEqual(['Why is the sky blue?', 'Short wavelengths scatter more.']);
        expect([...branchPoints(events).keys()]).toEqual([again.id]);
        expect(
          branchPoints(events)
            .get(again.id)
            ?.alternatives.map((a) => a.eventId),
        ).toEqual([first.id, again.id]);
      }));

    it('brings back the branches inside an alternative as they were left', () =>
      withStore(async (store) => {
        const key = fresh();
        const append = async (...events: Event[]) => {
          const session = await store.getSession(key);
          if (!session) throw new Error('no session');
          await store.appendEvents({ session, events });
        };
        await store.createSession(key);
        const a = said('a', 'user', 'A');
        const b = said('b', 'user', 'B');
        const c = said('c', 'user', 'C');
        await append(a, b);
        // B edited into C, then A edited into D: the conversation A, C is left whole.
        await store.rewind({ ...key, beforeInvocationId: 'b' });
        await append(c);
        await store.rewind({ ...key, beforeInvocationId: 'a' });
        const d = said('d', 'user', 'D');
        await append(d);
        let events = (await store.getSession(key))?.events ?? [];
        expect(texts(events)).toEqual(['D']);
        expect(
          branchPoints(events)
            .get(d.id)
            ?.alternatives.map((x) => x.eventId),
        ).toEqual([a.id, d.id]);

        await switchBranch(store, { ...key, eventId: a.id });
        events = (await store.getSession(key))?.events ?? [];
        expect(texts(events)).toEqual(['A', 'C']);
        const inner = branchPoints(events).get(c.id);
        expect(inner?.alternatives.map((x) => x.eventId)).toEqual([b.id, c.id]);
        expect(inner?.current).toBe(1);
        await switchBranch(store, { ...key, eventId: b.id });
        expect(texts((await store.getSession(key))?.events ?? [])).toEqual(['A', 'B']);
      }));

    it('does nothing for the current alternative, and refuses an event that starts none', () =>
      withStore(async (store) => {
        const key = fresh();
        const session = await store.createSession(key);
        const first = said('x', 'user', 'first');
        await store.appendEvents({ session, events: [first] });
        await store.rewind({ ...key, beforeInvocationId: 'x' });
        const second = said('y', 'user', 'second');
        const stored = await store.getSession(key);
        if (!stored) throw new Error('no session');
        await store.appendEvents({ session: stored, events: [second] });
        const count = async () => (await store.getSession(key))?.events.length;
        const before = await count();
        expect(await switchBranch(store, { ...key, eventId: second.id })).toBeUndefined();
        expect(await count()).toBe(before);
        await expect(switchBranch(store, { ...key, eventId: 'nowhere' })).rejects.toBeInstanceOf(InvalidInputError);
        await expect(switchBranch(store, { ...fresh(), eventId: first.id })).rejects.toBeInstanceOf(
          SessionNotFoundError,
        );
      }));
  });
}
