/**
 * The differential test: ADK's real `Runner` plays the same scripted
 * conversation on ADK's own `InMemorySessionService` and on this store (behind
 * the `/adk` adapter). Everything the services return must match field by
 * field, generated ids aside; then the store is closed and reopened and the
 * conversation continues. Run in Node (in-thread, and a client over a
 * MessageChannel) and in Chromium (a client of a real worker, ADK bundled with
 * `idb-adk-sessions/vite`).
 *
 * Deliberate differences are carved out below, each with its reason; the rest
 * of them are shown side by side in `test/node/adk/differences.test.ts`.
 */
import { type Event as AdkEvent, type BaseSessionService, LogLevel, setLogLevel } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP, createSessions, type Phase, playPhase, SESSIONS, T0 } from './scenario.js';
import type { RecordedRequest } from './scripted-model.js';
import { adkInMemory, type ServiceUnderTest } from './services.js';
import { type Snapshot, snapshot } from './snapshot.js';

interface Transcript {
  label: string;
  snapshots: Record<Phase, Snapshot>;
  requests: RecordedRequest[];
  /** Script responses left unused by each phase's models (all must be used). */
  leftover: number[];
  /** Ids of the events each phase's turns yielded, per turn (unnormalised). */
  yieldedIds: string[][];
  /** Ids each session's stored events have after phase 2 (unnormalised). */
  storedIds: Record<string, string[]>;
}

async function play(sut: ServiceUnderTest): Promise<Transcript> {
  vi.setSystemTime(T0);
  const requests: RecordedRequest[] = [];
  const leftover: number[] = [];
  const yieldedIds: string[][] = [];
  const snapshots = {} as Record<Phase, Snapshot>;
  let service: BaseSessionService = sut.service;
  await createSessions(service);
  for (const phase of [1, 2] as const) {
    if (phase === 2) service = await sut.reload();
    const run = await playPhase(phase, service, requests);
    leftover.push(...run.models.map((m) => m.remaining));
    yieldedIds.push(...run.yielded.map((turn: AdkEvent[]) => turn.map((e) => e.id)));
    snapshots[phase] = await snapshot(service, run.yielded);
  }
  const storedIds: Record<string, string[]> = {};
  for (const { userId, sessionId } of SESSIONS) {
    const s = await service.getSession({ appName: APP, userId, sessionId });
    storedIds[`${userId}/${sessionId}`] = s?.events.map((e) => e.id) ?? [];
  }
  await sut.close();
  return { label: sut.label, snapshots, requests, leftover, yieldedIds, storedIds };
}

/**
 * Where ADK 2.0.0's in-memory service and this store differ on purpose, the
 * snapshot of the store is brought to ADK's form here; each rule is asserted
 * on the store's side first, so a carve-out cannot hide a regression.
 */
function asAdkWouldReturn(store: Snapshot): Snapshot {
  const copy: Snapshot = structuredClone(store);
  for (const listing of Object.values(copy.listings)) {
    for (const entry of listing) {
      // Listed sessions carry their merged state here; ADK's in-memory listing returns `state: {}`.
      expect(entry.state).toEqual(store.sessions[`${entry.userId}/${entry.id}`]?.state);
      entry.state = {};
    }
  }
  return copy;
}

/**
 * The one difference the Runner makes visible: the writer's `outputKey` is
 * `temp:draft`. ADK's base `appendEvent` drops `temp:` keys before applying a
 * delta to the session object, so the reviewer (next agent, same invocation)
 * reads nothing; this store applies them to the session object (never to
 * storage), so the reviewer reads the draft. Tool writes to `temp:` go through
 * ADK's `State`, which writes the session object directly, so both agree there.
 */
function reviewerSawDraft(requests: RecordedRequest[]): string[] {
  return requests
    .filter((r) => r.model === 'reviewer-model')
    .map((r) => String(r.instruction).match(/Review the draft: \[(.*)\]/)?.[1] ?? '(no instruction)');
}

function withoutReviewerDraft(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.map((r) =>
    r.model === 'reviewer-model'
      ? { ...r, instruction: String(r.instruction).replace(/Review the draft: \[.*\]/, 'Review the draft: [-]') }
      : r,
  );
}

/**
 * The differential suite: ADK's Runner plays the scenario on ADK's in-memory
 * service and on each store `stores()` makes, and everything must match.
 */
/** Events with generated ids left out, ordered by time and then by content: the order ties get aside. */
function byTimeIgnoringTies(events: Snapshot['sessions'][string]['events']): string[] {
  return events
    .map((e) => {
      const { id: _id, invocationId: _invocation, ...rest } = e;
      return [e.timestamp as number, JSON.stringify(rest)] as const;
    })
    .sort(([t1, j1], [t2, j2]) => t1 - t2 || (j1 < j2 ? -1 : j1 > j2 ? 1 : 0))
    .map(([, json]) => json);
}

export interface DifferentialOptions {
  /** ADK's persistent `DatabaseSessionService`, played too and compared as a second reference. */
  database?: () => ServiceUnderTest;
}

export function describeRunnerDifferential(
  where: string,
  stores: () => ServiceUnderTest[],
  options: DifferentialOptions = {},
): void {
  describe(`ADK Runner on this store (${where}) vs on ADK InMemorySessionService`, () => {
    let reference: Transcript;
    let database: Transcript | undefined;
    const played: Transcript[] = [];

    beforeAll(async () => {
      // SequentialAgent logs a deprecation warning; it is still ADK 2.0's way to chain LlmAgents.
      setLogLevel(LogLevel.ERROR);
      vi.useFakeTimers({ toFake: ['Date'] });
      reference = await play(adkInMemory());
      for (const sut of stores()) played.push(await play(sut));
      if (options.database) database = await play(options.database());
      // The whole script once per service (three or four of them): about 3 s on a quiet machine, and
      // past the 10 s default when the 2-core CI machine is busy with the browser projects.
    }, 60_000);
    afterAll(() => {
      vi.useRealTimers();
      setLogLevel(LogLevel.INFO);
    });

    it('plays the whole script on every service', () => {
      for (const t of [reference, ...played]) expect(t.leftover, t.label).toEqual(Array(12).fill(0));
      // The scenario is not trivial: every session has events, state reached every stored scope.
      const a1 = reference.snapshots[2].sessions['alice/a1'];
      expect(a1?.events.length).toBeGreaterThan(8);
      expect(a1?.state).toMatchObject({ 'user:name': 'Ally', 'app:visits': 3, 'app:theme': 'dark', mood: 'curious' });
    });

    it('went through a transfer, a loop escalation, a long-running tool and an artifact save', () => {
      for (const t of [reference, ...played]) {
        const events = (key: string) => t.snapshots[2].sessions[key]?.events ?? [];
        const actions = (key: string) => events(key).map((e) => e.actions as Record<string, unknown> | undefined);
        expect(
          actions('bob/b1').some((a) => a?.transferToAgent === 'helper'),
          t.label,
        ).toBe(true);
        expect(
          events('bob/b1').some((e) => e.author === 'helper'),
          t.label,
        ).toBe(true);
        expect(actions('alice/p1').filter((a) => a?.escalate === true).length, t.label).toBe(2);
        expect(
          events('alice/a1').some((e) => (e.longRunningToolIds as string[] | undefined)?.includes('c11')),
          t.label,
        ).toBe(true);
        expect(
          actions('alice/a1').some((a) => (a?.artifactDelta as Record<string, number>)?.['note.txt'] === 0),
          t.label,
        ).toBe(true);
      }
    });

    it('asks for a confirmation before the reload, runs the tool once it is approved after it, not when rejected', () => {
      for (const t of [reference, ...played]) {
        const sessions = t.snapshots[2].sessions;
        const text = (key: string) => JSON.stringify(sessions[key]?.events);
        // Asked in phase 1, stored with its ToolConfirmation as JSON; approved after the reload.
        expect(JSON.stringify(t.snapshots[1].sessions['alice/a2']?.events), t.label).toContain('"toolConfirmation":{');
        expect(sessions['alice/a2']?.state, t.label).toMatchObject({
          'app:transferred': 5,
          'user:lastTransfer': { to: 'Bob', amount: 5 },
        });
        expect(text('alice/a2'), t.label).toContain('"response":{"sent":5,"to":"Bob"}');
        // Rejected: the tool never ran, the app-wide total did not move.
        expect(text('bob/b1'), t.label).toContain('This tool call is rejected.');
        expect(sessions['bob/b1']?.state, t.label).toMatchObject({ 'app:transferred': 5 });
        expect(sessions['bob/b1']?.state['user:lastTransfer'], t.label).toBeUndefined();
      }
    });

    for (const phase of [1, 2] as const) {
      const when = phase === 1 ? 'in the first phase' : 'after closing and reopening the store';
      describe(when, () => {
        it('stores the same events, in the same order, field by field', () => {
          for (const t of played) {
            for (const [key, session] of Object.entries(reference.snapshots[phase].sessions)) {
              expect(t.snapshots[phase].sessions[key]?.events, `${t.label}: ${key}`).toEqual(session.events);
            }
          }
        });

        it('has the same merged state and lastUpdateTime in every session', () => {
          for (const t of played) {
            for (const [key, session] of Object.entries(reference.snapshots[phase].sessions)) {
              const mine = t.snapshots[phase].sessions[key];
              expect(mine?.state, `${t.label}: ${key}`).toEqual(session.state);
              expect(mine?.lastUpdateTime, `${t.label}: ${key}`).toBe(session.lastUpdateTime);
            }
          }
        });

        it('answers numRecentEvents and afterTimestamp (inclusive on both) the same way', () => {
          for (const t of played) {
            expect(t.snapshots[phase].recent, t.label).toEqual(reference.snapshots[phase].recent);
            expect(t.snapshots[phase].after, t.label).toEqual(reference.snapshots[phase].after);
          }
          // Inclusive: the event whose timestamp was asked for is the first one returned.
          const a1 = reference.snapshots[phase].sessions['alice/a1'];
          expect(reference.snapshots[phase].after['alice/a1']?.[0]?.timestamp).toBe(a1?.events[2]?.timestamp);
        });

        it('lists the same sessions in the same order (state aside: see asAdkWouldReturn)', () => {
          for (const t of played) {
            expect(asAdkWouldReturn(t.snapshots[phase]).listings, t.label).toEqual(reference.snapshots[phase].listings);
          }
        });

        it('yields the same events from runAsync', () => {
          for (const t of played)
            expect(t.snapshots[phase].yielded, t.label).toEqual(reference.snapshots[phase].yielded);
        });

        it('never persists a temp: key, in state or in a stored event', () => {
          for (const t of [reference, ...played]) {
            const text = JSON.stringify(t.snapshots[phase].sessions);
            expect(text, t.label).not.toMatch(/"temp:/);
          }
        });
      });
    }

    it('shows the model the same history and instructions (temp: outputKey aside, see reviewerSawDraft)', () => {
      expect(reviewerSawDraft(reference.requests)).toEqual(['', '']);
      for (const t of played) {
        expect(reviewerSawDraft(t.requests), t.label).toEqual(['Draft: birds fly', 'Draft 2: birds sing']);
        expect(withoutReviewerDraft(t.requests), t.label).toEqual(withoutReviewerDraft(reference.requests));
      }
      // Tool writes to temp: are read by the next model call of the same invocation on every service...
      const scratch = reference.requests.filter((r) => /Scratch: noted Alice\./.test(String(r.instruction)));
      expect(scratch.length).toBeGreaterThan(0);
      // ...and are gone by the next invocation.
      const thanks = reference.requests.find((r) => JSON.stringify(r.contents).includes('Thanks'));
      expect(String(thanks?.instruction)).toContain('Scratch: .');
    });

    it('stores exactly the events the Runner yielded, plus the user messages, under their own ids', () => {
      for (const t of [reference, ...played]) {
        const stored = new Set(Object.values(t.storedIds).flat());
        for (const id of t.yieldedIds.flat()) expect(stored.has(id), `${t.label}: ${id}`).toBe(true);
        const turns = t.yieldedIds.length;
        // One stored user message per turn; every other stored event was yielded.
        expect(stored.size, t.label).toBe(t.yieldedIds.flat().length + turns);
      }
    });

    // Node only: ADK's DatabaseSessionService needs a database driver.
    if (options.database)
      describe("against ADK's DatabaseSessionService, the persistent reference", () => {
        for (const phase of [1, 2] as const) {
          it(`has the same merged state and lastUpdateTime in every session (phase ${phase})`, () => {
            for (const t of played) {
              for (const [key, session] of Object.entries(database?.snapshots[phase].sessions ?? {})) {
                const mine = t.snapshots[phase].sessions[key];
                expect(mine?.state, `${t.label}: ${key}`).toEqual(session.state);
                expect(mine?.lastUpdateTime, `${t.label}: ${key}`).toBe(session.lastUpdateTime);
              }
            }
          });

          it(`stores the same events, field by field, when ties in time are set aside (phase ${phase})`, () => {
            for (const t of played) {
              for (const [key, session] of Object.entries(database?.snapshots[phase].sessions ?? {})) {
                const mine = t.snapshots[phase].sessions[key]?.events ?? [];
                expect(byTimeIgnoringTies(mine), `${t.label}: ${key}`).toEqual(byTimeIgnoringTies(session.events));
              }
            }
          });
        }

        it('treats afterTimestamp as inclusive, where DatabaseSessionService (adk-js 2.0) is exclusive', () => {
          const a1 = reference.snapshots[2].sessions['alice/a1'];
          const t = a1?.events[2]?.timestamp as number;
          for (const x of played) expect(x.snapshots[2].after['alice/a1']?.[0]?.timestamp, x.label).toBe(t);
          const theirs = database?.snapshots[2].after['alice/a1'] ?? [];
          expect(theirs.length).toBeGreaterThan(0);
          for (const e of theirs) expect(e.timestamp as number).toBeGreaterThan(t);
        });

        it('keeps append order where DatabaseSessionService, which orders by timestamp alone, loses it on ties', () => {
          const order = (t: Transcript) =>
            Object.values(t.snapshots[2].sessions).map((s) => s.events.map((e) => `${e.author}:${e.timestamp}`));
          for (const t of played) expect(order(t), t.label).toEqual(order(reference));
          expect(order(database as Transcript)).not.toEqual(order(reference));
        });
      });
  });
}
