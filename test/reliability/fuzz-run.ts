/**
 * Runs generated bad calls against a store and checks each one: rejected (never
 * thrown synchronously, never hanging) with an error of the typed family, and
 * the store's full dump unchanged. Also the odd-but-valid inputs: ids and keys
 * that look hostile but are legal must be accepted and round-trip exactly,
 * without touching anyone else's data.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { type Event, type SessionService, type SessionStore, SessionStoreError } from '../../src/index.js';
import { collidingId } from './arbitraries.js';
import { type BadCall, crossFieldBadCalls, type Method, type Seed } from './bad-inputs.js';
import { canonical, dumpStore, type Universe } from './dump.js';
import { prototypeFingerprint } from './fingerprint.js';

export { prototypeFingerprint };

export interface FuzzStats {
  tried: number;
  /** Rejections by error code. */
  byCode: Record<string, number>;
  dumps: number;
}

export const newFuzzStats = (): FuzzStats => ({ tried: 0, byCode: {}, dumps: 0 });

const HANG_MS = 20_000;

/** Settles `work` or fails after `ms`: a hang is a failure, not a slow test. */
export async function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung for ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([work(), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls `method` and returns what it was rejected with; fails if it threw synchronously or succeeded. */
export async function rejectionOf(store: SessionStore, call: BadCall<Method>): Promise<unknown> {
  const fn = store[call.method] as (request: unknown) => Promise<unknown>;
  let pending: Promise<unknown>;
  try {
    pending = fn.call(store, call.request);
  } catch (error) {
    throw new Error(`${call.defect}: threw synchronously instead of rejecting: ${String(error)}`);
  }
  expect(pending, `${call.defect}: must return a promise`).toBeInstanceOf(Promise);
  const outcome = await within(HANG_MS, call.defect, () =>
    pending.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  );
  if (outcome.ok) throw new Error(`${call.defect}: was accepted (resolved with ${describe(outcome.value)})`);
  return outcome.error;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}

export function countCode(stats: FuzzStats, error: unknown): void {
  const code = error instanceof SessionStoreError ? error.code : `untyped ${(error as Error)?.name}`;
  stats.byCode[code] = (stats.byCode[code] ?? 0) + 1;
}

/** `call` is rejected with an error of the typed family (counted in `stats` by its code). */
async function rejectsTyped(store: SessionStore, call: BadCall<Method>, stats: FuzzStats): Promise<void> {
  const error = await rejectionOf(store, call);
  countCode(stats, error);
  expect(error, `${call.defect}: ${String(error)}`).toBeInstanceOf(SessionStoreError);
}

/** The bad calls no slot expresses (`crossFieldBadCalls`): each rejected with a typed error, the store unchanged. */
export async function fuzzCrossField(
  store: SessionStore,
  seed: Seed,
  universe: Universe,
  stats: FuzzStats,
): Promise<void> {
  const before = await dumpStore(store, universe);
  for (const call of crossFieldBadCalls(seed)) await rejectsTyped(store, call, stats);
  expect(await dumpStore(store, universe), 'store changed by a cross-field bad call').toBe(before);
}

export async function fuzzClient(
  store: SessionStore,
  calls: fc.Arbitrary<BadCall<Method>>,
  options: { seed: number; numRuns: number; universe: Universe; dumpEvery: number },
  stats: FuzzStats,
): Promise<void> {
  const before = await dumpStore(store, options.universe);
  const fingerprint = prototypeFingerprint();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(calls, async (call) => {
      stats.tried++;
      await rejectsTyped(store, call, stats);
      if (++n % options.dumpEvery === 0) {
        stats.dumps++;
        expect(await dumpStore(store, options.universe), `store changed by ${call.defect}`).toBe(before);
      }
    }),
    { seed: options.seed, numRuns: options.numRuns },
  );
  expect(await dumpStore(store, options.universe)).toBe(before);
  expect(prototypeFingerprint()).toBe(fingerprint);
}

/**
 * Ids a naive store would mangle but this one must keep exactly. A lone surrogate is kept in an
 * event id only: app, user and session ids must be well-formed UTF-16 (they become URI parts).
 */
export const ODD_IDS = [
  '\uD800',
  'a\uDC00b',
  '\uD83D\uDE00x',
  '\u202Eevil\u202C',
  '\u05E9\u05DC\u05D5\u05DD',
  'nul\u0000in\u0000middle',
  '😀🙂',
  '__proto__',
  'constructor',
  'prototype',
  'app:user:',
  '../..',
  '%00',
  'x'.repeat(1024),
];

/**
 * Creates, appends to, reads, lists and deletes sessions under odd ids (and
 * state with prototype-named keys), checking each result exactly, and that the
 * seeded universe's dump never changes. Returns how many inputs it tried.
 */
export async function oddButValid(
  store: SessionService,
  options: { seed: number; numRuns: number; universe: Universe },
): Promise<number> {
  const before = await dumpStore(store, options.universe);
  const fingerprint = prototypeFingerprint();
  const idArb = fc.oneof(fc.constantFrom(...ODD_IDS), collidingId);
  const keyIdArb = idArb.filter((id) => !/\p{Cs}/u.test(id));
  let tried = 0;
  await fc.assert(
    fc.asyncProperty(keyIdArb, keyIdArb, keyIdArb, idArb, async (appName, userId, sessionId, eventId) => {
      // An odd app name may collide with nothing in the seeded universe, or be one of its apps: skip those.
      fc.pre(!options.universe.apps.includes(appName));
      tried++;
      const state = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"app:__proto__":2}');
      const created = await store.createSession({ appName, userId, sessionId, state });
      expect([created.appName, created.userId, created.id]).toEqual([appName, userId, sessionId]);
      const delta = JSON.parse('{"__proto__":"kept","user:constructor":3,"temp:__proto__":4}');
      const event: Event = { id: eventId, timestamp: 5, actions: { stateDelta: delta } };
      await store.appendEvent({ session: created, event });
      const read = await store.getSession({ appName, userId, sessionId });
      expect(read?.events.map((e) => e.id)).toEqual([eventId]);
      expect(canonical(read?.events[0]?.actions?.stateDelta)).toBe(
        canonical(JSON.parse('{"__proto__":"kept","user:constructor":3}')),
      );
      expect(canonical(read?.state)).toBe(
        canonical(
          JSON.parse('{"__proto__":"kept","constructor":{"prototype":{"x":1}},"app:__proto__":2,"user:constructor":3}'),
        ),
      );
      const listed = await store.listSessions({ appName });
      expect(listed.sessions.map((s) => [s.userId, s.id])).toEqual([[userId, sessionId]]);
      await store.deleteSession({ appName, userId, sessionId });
      expect(await store.getSession({ appName, userId, sessionId })).toBeUndefined();
    }),
    { seed: options.seed, numRuns: options.numRuns },
  );
  expect(await dumpStore(store, options.universe)).toBe(before);
  expect(prototypeFingerprint()).toBe(fingerprint);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return tried;
}

/** A small store to fuzz against: two apps, two users, sessions with events and state in every scope. */
export async function seedStore(store: SessionService): Promise<{ seed: Seed; universe: Universe }> {
  const universe: Universe = { apps: ['fuzz-app', 'fuzz-other'], users: ['alice', 'bob'] };
  for (const appName of universe.apps) {
    for (const userId of universe.users) {
      const s = await store.createSession({ appName, userId, sessionId: 'seeded', state: { 'app:a': 1, 'user:u': 1 } });
      for (let i = 0; i < 3; i++) {
        await store.appendEvent({
          session: s,
          event: {
            id: `seed-${i}`,
            invocationId: `inv-${i}`,
            timestamp: 1_700_000_000_000 + i,
            actions: { stateDelta: { [`k${i}`]: i } },
          },
        });
      }
    }
  }
  const session = await store.getSession({ appName: 'fuzz-app', userId: 'alice', sessionId: 'seeded' });
  if (!session) throw new Error('seeded session missing');
  return { seed: { appName: 'fuzz-app', userId: 'alice', sessionId: 'seeded', session }, universe };
}
