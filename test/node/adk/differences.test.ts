/**
 * The deliberate differences between ADK 2.0.0's `InMemorySessionService` and
 * this store, each shown side by side: the same calls on both, and what each
 * does. The store follows the persistent rules of the contract
 * (`adk-contract.md`); ADK's in-memory service is a development stand-in
 * without storage. The README's list of differences is this file.
 */
import {
  type Event as AdkEvent,
  type Session as AdkSession,
  type BaseSessionService,
  createEvent,
  getLogger,
  InMemorySessionService,
  LlmAgent,
  type Logger,
  Runner,
  State,
  setLogger,
} from '@google/adk';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdkSessionService } from '../../../src/adk/index.js';
import {
  AlreadyExistsError,
  IndexedDbSessionService,
  InvalidInputError,
  SessionNotFoundError,
  StaleSessionError,
} from '../../../src/index.js';
import { type RecordedRequest, ScriptedModel, say } from '../../adk/scripted-model.js';

const APP = 'app';
const key = { appName: APP, userId: 'u1', sessionId: 's1' };

let adk: InMemorySessionService;
let store: AdkSessionService;
let n = 0;

beforeEach(() => {
  adk = new InMemorySessionService();
  store = new AdkSessionService(new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: `diff-${n++}` }));
});
afterEach(async () => {
  await store.close();
});

let clock = 1_000;
function event(stateDelta: Record<string, unknown> = {}, extra: Partial<AdkEvent> = {}): AdkEvent {
  clock += 1;
  return createEvent({
    invocationId: 'inv',
    author: 'user',
    timestamp: clock,
    content: { role: 'user', parts: [{ text: `m${clock}` }] },
    actions: { stateDelta },
    ...extra,
  });
}

/** Runs `steps` on ADK's service and on the store; returns what each produced. */
async function onBoth<T>(steps: (service: BaseSessionService) => Promise<T>): Promise<{ adk: T; store: T }> {
  return { adk: await steps(adk), store: await steps(store) };
}

async function load(service: BaseSessionService, config?: { numRecentEvents?: number }): Promise<AdkSession> {
  const session = await service.getSession({ ...key, ...(config ? { config } : {}) });
  if (!session) throw new Error('session missing');
  return session;
}

/** ADK's own test for its event marker (`isEvent` is not exported from the package root). */
function isEvent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.for('google.adk.event') in value;
}

describe('deliberate differences from ADK InMemorySessionService', () => {
  it('temp: keys of a delta reach the session object for the rest of the invocation (ADK 2.0.0 drops them); neither stores them', async () => {
    const { adk: a, store: s } = await onBoth(async (service) => {
      const session = await service.createSession(key);
      await service.appendEvent({ session, event: event({ 'temp:draft': 'd1', kept: 1 }) });
      return { live: { ...session.state }, stored: await load(service) };
    });
    expect(a.live).toEqual({ kept: 1 });
    expect(s.live).toEqual({ kept: 1, 'temp:draft': 'd1' });
    for (const side of [a, s]) {
      expect(side.stored.state).toEqual({ kept: 1 });
      expect({ ...side.stored.events[0]?.actions.stateDelta }).toEqual({ kept: 1 });
    }
  });

  it('so a temp: value passed to runAsync reaches the instruction of that invocation (ADK 2.0.0: empty)', async () => {
    const seen = await onBoth(async (service) => {
      const log: RecordedRequest[] = [];
      const agent = new LlmAgent({
        name: 'bot',
        model: new ScriptedModel('m', [say('bonjour')], log, () => {}),
        instruction: 'Reply in [{temp:locale?}].',
      });
      await service.createSession(key);
      const runner = new Runner({ appName: APP, agent, sessionService: service });
      for await (const _ of runner.runAsync({
        userId: key.userId,
        sessionId: key.sessionId,
        newMessage: { role: 'user', parts: [{ text: 'hi' }] },
        stateDelta: { 'temp:locale': 'fr' },
      })) {
        // Only the model's request matters here.
      }
      return String(log[0]?.instruction).match(/Reply in \[(.*)\]/)?.[1];
    });
    expect(seen).toEqual({ adk: '', store: 'fr' });
  });

  it('numRecentEvents: 0 returns no events (ADK treats 0 as "not set" and returns them all)', async () => {
    const counts = await onBoth(async (service) => {
      const session = await service.createSession(key);
      await service.appendEvent({ session, event: event() });
      await service.appendEvent({ session, event: event() });
      return (await load(service, { numRecentEvents: 0 })).events.length;
    });
    expect(counts).toEqual({ adk: 2, store: 0 });
  });

  it('an append through an outdated session object is rejected with StaleSessionError (ADK accepts it)', async () => {
    const outcome = await onBoth(async (service) => {
      await service.createSession(key);
      const first = await load(service);
      const second = await load(service); // another tab's copy
      await service.appendEvent({ session: first, event: event({ who: 'first' }) });
      const error = await service.appendEvent({ session: second, event: event({ who: 'second' }) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const stored = await load(service);
      return { error, who: stored.state.who, events: stored.events.length };
    });
    expect(outcome.adk).toEqual({ error: undefined, who: 'second', events: 2 });
    expect(outcome.store.error).toBeInstanceOf(StaleSessionError);
    expect(String(outcome.store.error)).toMatch(/modified in storage/);
    expect(outcome.store).toMatchObject({ who: 'first', events: 1 });
    // Reload and retry: accepted.
    const fresh = await load(store);
    await store.appendEvent({ session: fresh, event: event({ who: 'second' }) });
    expect((await load(store)).state.who).toBe('second');
  });

  it('createSession with an id that exists is rejected (ADK replaces the session, losing its events)', async () => {
    const outcome = await onBoth(async (service) => {
      const session = await service.createSession({ ...key, state: { v: 1 } });
      await service.appendEvent({ session, event: event() });
      const error = await service.createSession({ ...key, state: { v: 2 } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const stored = await load(service);
      return { error, v: stored.state.v, events: stored.events.length };
    });
    expect(outcome.adk).toEqual({ error: undefined, v: 2, events: 0 });
    expect(outcome.store.error).toBeInstanceOf(AlreadyExistsError);
    expect(outcome.store).toMatchObject({ v: 1, events: 1 });
  });

  describe('appending to a deleted session', () => {
    const warnings: unknown[][] = [];
    const original = getLogger();
    beforeEach(() => {
      warnings.length = 0;
      const quiet = () => {};
      const logger: Logger = {
        log: quiet,
        debug: quiet,
        info: quiet,
        warn: (...args) => warnings.push(args),
        error: quiet,
        setLogLevel: quiet,
      };
      setLogger(logger);
    });
    afterEach(() => setLogger(original));

    it('is rejected with SessionNotFoundError and changes nothing (ADK logs a warning, returns the event, and still updates the given object)', async () => {
      const outcome = await onBoth(async (service) => {
        const session = await service.createSession(key);
        await service.deleteSession(key);
        const error = await service.appendEvent({ session, event: event({ x: 1 }) }).then(
          () => undefined,
          (e: unknown) => e,
        );
        return {
          error,
          live: { ...session.state },
          events: session.events.length,
          after: await service.getSession(key),
        };
      });
      expect(outcome.adk).toEqual({ error: undefined, live: { x: 1 }, events: 1, after: undefined });
      expect(warnings.join(' ')).toMatch(/Failed to append event/);
      expect(outcome.store.error).toBeInstanceOf(SessionNotFoundError);
      expect(String(outcome.store.error)).toMatch(/not found/);
      expect(outcome.store).toMatchObject({ live: {}, events: 0, after: undefined });
    });
  });

  it('app: and user: keys given to createSession are shared like those of an event (ADK keeps them in that session)', async () => {
    const seen = await onBoth(async (service) => {
      await service.createSession({ ...key, state: { 'app:plan': 'pro', 'user:name': 'Ada', own: 1 } });
      const other = await service.createSession({ appName: APP, userId: 'u1', sessionId: 's2' });
      return other.state;
    });
    expect(seen.adk).toEqual({});
    expect(seen.store).toEqual({ 'app:plan': 'pro', 'user:name': 'Ada' });
  });

  it("listSessions returns each session's merged state (ADK returns state: {})", async () => {
    const listed = await onBoth(async (service) => {
      const session = await service.createSession({ ...key, state: { own: 1 } });
      await service.appendEvent({ session, event: event({ 'user:name': 'Ada' }) });
      return (await service.listSessions({ appName: APP, userId: 'u1' })).sessions.map((s) => s.state);
    });
    expect(listed).toEqual({ adk: [{}], store: [{ own: 1, 'user:name': 'Ada' }] });
  });

  it('listSessions without order lists the least recently updated first (ADK: creation order)', async () => {
    const ids = await onBoth(async (service) => {
      const s1 = await service.createSession(key);
      await service.createSession({ ...key, sessionId: 's2' });
      await service.appendEvent({ session: s1, event: event({}, { timestamp: Date.now() + 60_000 }) });
      return (await service.listSessions({ appName: APP })).sessions.map((s) => s.id);
    });
    expect(ids).toEqual({ adk: ['s1', 's2'], store: ['s2', 's1'] });
  });

  it("events read back are plain data: ADK's symbol marker is not stored, so isEvent() is false on them", async () => {
    const marked = await onBoth(async (service) => {
      const session = await service.createSession(key);
      await service.appendEvent({ session, event: event() });
      return { live: isEvent(session.events[0]), loaded: isEvent((await load(service)).events[0]) };
    });
    expect(marked.adk).toEqual({ live: true, loaded: true });
    expect(marked.store).toEqual({ live: true, loaded: false });
  });

  it("the session object gets the value the store persisted (ADK 2.0.0 keeps a State write made after the event's)", async () => {
    const values = await onBoth(async (service) => {
      const session = await service.createSession(key);
      const delta: Record<string, unknown> = {};
      new State(session.state, delta).set('x', 'from the event');
      new State(session.state, {}).set('x', 'written later');
      await service.appendEvent({ session, event: event(delta) });
      return { live: session.state.x, stored: (await load(service)).state.x };
    });
    expect(values.adk).toEqual({ live: 'written later', stored: 'from the event' });
    expect(values.store).toEqual({ live: 'from the event', stored: 'from the event' });
  });

  it('state values are kept in their JSON form, as DatabaseSessionService keeps them: a Date becomes its ISO string', async () => {
    const when = new Date(0);
    const values = await onBoth(async (service) => {
      const session = await service.createSession(key);
      await service.appendEvent({ session, event: event({ when }) });
      return (await load(service)).state.when;
    });
    expect(values.adk).toBeInstanceOf(Date);
    expect(values.adk).toEqual(when);
    expect(values.store).toBe(when.toISOString());
  });

  it('an undefined state write is an InvalidInputError (ADK accepts it): JSON has no undefined to store', async () => {
    const outcome = await onBoth(async (service) => {
      const session = await service.createSession({ ...key, sessionId: 's-undefined' });
      const error = await service.appendEvent({ session, event: event({ gone: undefined }) }).then(
        () => undefined,
        (e: unknown) => e,
      );
      return { error, events: session.events.length };
    });
    expect(outcome.adk).toEqual({ error: undefined, events: 1 });
    expect(outcome.store.error).toBeInstanceOf(InvalidInputError);
    expect(outcome.store.events).toBe(0);
  });

  it('afterTimestamp keeps every event at or after t when timestamps are out of order (ADK: only those after the last older one)', async () => {
    const kept = await onBoth(async (service) => {
      const session = await service.createSession(key);
      // ADK scans back from the newest event and stops at the first older than t: the 50 before the 10 is lost.
      for (const timestamp of [50, 10, 60]) await service.appendEvent({ session, event: event({}, { timestamp }) });
      const loaded = await service.getSession({ ...key, config: { afterTimestamp: 20 } });
      return loaded?.events.map((e) => e.timestamp);
    });
    expect(kept).toEqual({ adk: [60], store: [50, 60] });
  });
});

describe('deliberate differences in what is refused', () => {
  const refusal = (e: unknown) => (e instanceof InvalidInputError ? 'InvalidInputError' : e);

  it('an event time in seconds is an InvalidInputError (ADK stores it as a time in January 1970)', async () => {
    const outcome = await onBoth(async (service) => {
      const session = await service.createSession(key);
      const error = await service
        .appendEvent({ session, event: event({}, { timestamp: 1_764_000_000 }) })
        .then(() => undefined, refusal);
      return { error, stored: (await load(service)).events.length };
    });
    expect(outcome).toEqual({ adk: { error: undefined, stored: 1 }, store: { error: 'InvalidInputError', stored: 0 } });
  });

  it('a session id with a lone surrogate is an InvalidInputError (ADK creates the session)', async () => {
    const outcome = await onBoth((service) =>
      service.createSession({ ...key, sessionId: 'half\uD800' }).then((s) => s.id === 'half\uD800', refusal),
    );
    expect(outcome).toEqual({ adk: true, store: 'InvalidInputError' });
  });
});

describe('where the two agree (checked, since the contract states them)', () => {
  it('afterTimestamp is inclusive on both', async () => {
    const kept = await onBoth(async (service) => {
      const session = await service.createSession(key);
      for (const timestamp of [10, 20, 20, 30]) await service.appendEvent({ session, event: event({}, { timestamp }) });
      const loaded = await service.getSession({ ...key, config: { afterTimestamp: 20 } });
      return loaded?.events.map((e) => e.timestamp);
    });
    expect(kept).toEqual({ adk: [20, 20, 30], store: [20, 20, 30] });
  });

  it('events keep append order when timestamps tie, on both', async () => {
    const order = await onBoth(async (service) => {
      const session = await service.createSession(key);
      for (const id of ['zz', 'aa', 'mm'])
        await service.appendEvent({ session, event: event({}, { id, timestamp: 5 }) });
      return (await load(service)).events.map((e) => e.id);
    });
    expect(order).toEqual({ adk: ['zz', 'aa', 'mm'], store: ['zz', 'aa', 'mm'] });
  });

  it('an event whose id is already in the session replaces it, on both', async () => {
    const ids = await onBoth(async (service) => {
      const session = await service.createSession(key);
      await service.appendEvent({ session, event: event({ v: 1 }, { id: 'same' }) });
      await service.appendEvent({ session, event: event({ v: 2 }, { id: 'same' }) });
      const stored = await load(service);
      return { live: session.events.length, stored: stored.events.length, v: stored.state.v };
    });
    expect(ids.adk).toEqual({ live: 1, stored: 1, v: 2 });
    expect(ids.store).toEqual({ live: 1, stored: 1, v: 2 });
  });
});
