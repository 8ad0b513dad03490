/**
 * Model-based testing: random command sequences issued from several clients
 * over one database, each checked against `ContractModel` as it runs, and the
 * whole store compared with the model after every step. Commands are plain
 * data, so fast-check shrinks a failing sequence to a short one and prints it.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  AlreadyExistsError,
  type Event,
  InvalidInputError,
  type Session,
  SessionNotFoundError,
  type SessionService,
  SessionStoreError,
  StaleSessionError,
} from '../../src/index.js';
import { INVALID_EVENT_KINDS, type InvalidEventKind, spoil, stateDelta } from './arbitraries.js';
import { canonical, dumpStore, type Universe } from './dump.js';
import { applyTo, ContractModel, type Delta, type ListRequest, type ModelSession } from './model.js';

type AppendKind = 'valid' | 'temp' | 'partial' | 'reuse-id' | 'foreign' | { invalid: InvalidEventKind };

export type Command =
  | { t: 'create'; c: number; app: number; user: number; sid: number | null; state: Delta }
  | { t: 'getOrCreate'; c: number; app: number; user: number; sid: number; state: Delta }
  | { t: 'get'; c: number; app: number; user: number; sid: number; recent: number | null; after: number | null }
  | {
      t: 'list';
      c: number;
      app: number;
      user: number | null;
      order: 'asc' | 'desc' | null;
      limit: number | null;
      page: number | null;
      offset: number | null;
    }
  | { t: 'append'; h: number; kind: AppendKind; delta: Delta; ts: number; via: number }
  | { t: 'burst'; h: number; deltas: Delta[]; ts: number }
  | { t: 'fanout'; c: number; deltas: Delta[]; ts: number }
  | { t: 'race'; app: number; user: number; sid: number; a: number; b: number; delta: Delta; ts: number }
  | { t: 'createRace'; app: number; user: number; sid: number; a: number; b: number }
  | { t: 'delete'; c: number; app: number; user: number; sid: number };

export interface ModelConfig {
  clients: number;
  apps: readonly string[];
  users: readonly string[];
  sessionIds: readonly string[];
  maxCommands: number;
  /** Shortest sequence; raise it where runs are few and costly (fast-check starts with short ones). */
  minCommands?: number;
  /** Relative weights of command kinds, to lean a run towards what it probes. */
  weights?: Partial<Record<Command['t'], number>>;
}

export function commandArbitrary(config: ModelConfig): fc.Arbitrary<Command[]> {
  const c = fc.nat({ max: config.clients - 1 });
  const app = fc.nat({ max: config.apps.length - 1 });
  const user = fc.nat({ max: config.users.length - 1 });
  const sid = fc.nat({ max: config.sessionIds.length - 1 });
  const h = fc.nat({ max: 50 });
  const ts = fc.integer({ min: -3, max: 40 });
  const kind: fc.Arbitrary<AppendKind> = fc.oneof(
    { arbitrary: fc.constant('valid' as const), weight: 8 },
    { arbitrary: fc.constant('temp' as const), weight: 2 },
    { arbitrary: fc.constant('partial' as const), weight: 1 },
    { arbitrary: fc.constant('reuse-id' as const), weight: 1 },
    { arbitrary: fc.constant('foreign' as const), weight: 1 },
    { arbitrary: fc.constantFrom(...INVALID_EVENT_KINDS).map((k) => ({ invalid: k })), weight: 2 },
  );
  const w = (t: Command['t'], fallback: number): number => config.weights?.[t] ?? fallback;
  const command: fc.Arbitrary<Command> = fc.oneof(
    {
      arbitrary: fc.record({ t: fc.constant('create' as const), c, app, user, sid: fc.option(sid), state: stateDelta }),
      weight: w('create', 3),
    },
    {
      arbitrary: fc.record({ t: fc.constant('getOrCreate' as const), c, app, user, sid, state: stateDelta }),
      weight: w('getOrCreate', 1),
    },
    {
      arbitrary: fc.record({
        t: fc.constant('get' as const),
        c,
        app,
        user,
        sid,
        recent: fc.option(fc.nat({ max: 4 })),
        after: fc.option(ts),
      }),
      weight: w('get', 3),
    },
    {
      arbitrary: fc.record({
        t: fc.constant('list' as const),
        c,
        app,
        user: fc.option(user),
        order: fc.option(fc.constantFrom('asc' as const, 'desc' as const)),
        limit: fc.option(fc.nat({ max: 3 })),
        page: fc.option(fc.integer({ min: 1, max: 3 })),
        offset: fc.option(fc.nat({ max: 3 })),
      }),
      weight: w('list', 1),
    },
    {
      arbitrary: fc.record({ t: fc.constant('append' as const), h, kind, delta: stateDelta, ts, via: c }),
      weight: w('append', 8),
    },
    {
      arbitrary: fc.record({
        t: fc.constant('burst' as const),
        h,
        deltas: fc.array(stateDelta, { minLength: 2, maxLength: 5 }),
        ts,
      }),
      weight: w('burst', 2),
    },
    {
      arbitrary: fc.record({
        t: fc.constant('fanout' as const),
        c,
        deltas: fc.array(stateDelta, { minLength: 2, maxLength: 6 }),
        ts,
      }),
      weight: w('fanout', 3),
    },
    {
      arbitrary: fc.record({ t: fc.constant('race' as const), app, user, sid, a: c, b: c, delta: stateDelta, ts }),
      weight: w('race', 2),
    },
    {
      arbitrary: fc.record({ t: fc.constant('createRace' as const), app, user, sid, a: c, b: c }),
      weight: w('createRace', 1),
    },
    { arbitrary: fc.record({ t: fc.constant('delete' as const), c, app, user, sid }), weight: w('delete', 1) },
  );
  return fc.array(command, { minLength: config.minCommands ?? 1, maxLength: config.maxCommands, size: 'max' });
}

/** What one client holds: a session object it got back, and what the model says about it. */
interface Handle {
  client: number;
  obj: Session;
  /** The stored incarnation and revision the client's front tracks for `obj`; `null` for an untracked copy. */
  ref: { incarnation: number; revision: number } | null;
  eventIds: string[];
  state: Record<string, unknown>;
}

export interface ModelStats {
  commands: number;
  appendsTried: number;
  appendsStored: number;
  rejected: Record<string, number>;
  checks: number;
}

export function newStats(): ModelStats {
  return { commands: 0, appendsTried: 0, appendsStored: 0, rejected: {}, checks: 0 };
}

function countRejection(stats: ModelStats, error: unknown): void {
  const code = error instanceof SessionStoreError ? error.code : `untyped:${String(error)}`;
  stats.rejected[code] = (stats.rejected[code] ?? 0) + 1;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to be rejected, but it succeeded');
}

let eventCounter = 0;

function makeEvent(ts: number, delta: Delta, id = `ev-${++eventCounter}`): Event & Record<string, unknown> {
  return {
    id,
    invocationId: `inv-${eventCounter}`,
    author: 'agent',
    timestamp: ts,
    content: { role: 'model', parts: [{ text: `text ${id}` }] },
    actions: { stateDelta: delta, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
  };
}

/** Splits off nothing: a delta for the session object in place, `temp:` keys included, merged-view keys as given. */
function expectObjectMatches(handle: Handle): void {
  expect(handle.obj.events.map((e) => e.id)).toEqual(handle.eventIds);
  expect(canonical(handle.obj.state)).toBe(canonical(handle.state));
}

/**
 * Runs `commands` against `clients` (services over one database) and the
 * model, failing at the first divergence.
 */
export async function runCommands(
  commands: Command[],
  clients: SessionService[],
  config: ModelConfig,
  stats: ModelStats,
  baseTime: number,
): Promise<void> {
  const model = new ContractModel();
  const handles: Handle[] = [];
  const universe: Universe = { apps: config.apps, users: config.users };
  const client = (i: number): SessionService => clients[i % clients.length] as SessionService;
  const keyOf = (cmd: { app: number; user: number; sid: number }): [string, string, string] => [
    config.apps[cmd.app] as string,
    config.users[cmd.user] as string,
    config.sessionIds[cmd.sid] as string,
  ];
  const adopt = (c: number, obj: Session, m: ModelSession, eventIds: string[]): Handle => {
    const handle: Handle = {
      client: c,
      obj,
      ref: { incarnation: m.incarnation, revision: m.revision },
      eventIds,
      state: structuredClone(obj.state),
    };
    handles.push(handle);
    return handle;
  };
  const expectView = (
    obj: Session | undefined,
    m: ModelSession,
    config?: { numRecentEvents?: number; afterTimestamp?: number },
  ): string[] => {
    const view = model.view(m, config);
    expect(obj).toBeDefined();
    const o = obj as Session;
    expect([o.appName, o.userId, o.id, o.lastUpdateTime]).toEqual([
      view.appName,
      view.userId,
      view.id,
      view.lastUpdateTime,
    ]);
    expect(canonical(o.state)).toBe(canonical(view.state));
    expect(canonical(o.events)).toBe(canonical(view.events));
    return view.eventIds;
  };
  /** Predicts whether an append through `handle` is accepted, as the contract's stale rule says. */
  const outcomeFor = (handle: Handle): 'stored' | 'not-found' | 'stale' => {
    const m = model.get(handle.obj.appName, handle.obj.userId, handle.obj.id);
    if (!m) return 'not-found';
    if (handle.ref) {
      return handle.ref.incarnation === m.incarnation && handle.ref.revision === m.revision ? 'stored' : 'stale';
    }
    return m.lastUpdateTime > handle.obj.lastUpdateTime ? 'stale' : 'stored';
  };
  const stored = (handle: Handle, event: Event & Record<string, unknown>, delta: Delta): void => {
    const m = model.get(handle.obj.appName, handle.obj.userId, handle.obj.id) as ModelSession;
    model.append(m, event);
    handle.ref = { incarnation: m.incarnation, revision: m.revision };
    const at = handle.eventIds.indexOf(event.id);
    if (at < 0) handle.eventIds.push(event.id);
    applyTo(handle.state, delta);
    stats.appendsStored++;
  };
  const expectFailure = async (promise: Promise<unknown>, Class: new (m: string) => Error): Promise<void> => {
    const error = await rejection(promise);
    countRejection(stats, error);
    expect(error).toBeInstanceOf(Class);
  };

  for (const cmd of commands) {
    stats.commands++;
    switch (cmd.t) {
      case 'create': {
        const [appName, userId] = keyOf({ ...cmd, sid: 0 });
        const sessionId = cmd.sid === null ? undefined : config.sessionIds[cmd.sid];
        const request = { appName, userId, state: structuredClone(cmd.state), ...(sessionId ? { sessionId } : {}) };
        if (sessionId && model.get(appName, userId, sessionId)) {
          await expectFailure(client(cmd.c).createSession(request), AlreadyExistsError);
          break;
        }
        const s = await client(cmd.c).createSession(request);
        const m = model.create(appName, userId, s.id, cmd.state, s.lastUpdateTime);
        adopt(cmd.c, s, m, expectView(s, m));
        break;
      }
      case 'getOrCreate': {
        const [appName, userId, sessionId] = keyOf(cmd);
        const existing = model.get(appName, userId, sessionId);
        const s = await client(cmd.c).getOrCreateSession({
          appName,
          userId,
          sessionId,
          state: structuredClone(cmd.state),
        });
        const m = existing ?? model.create(appName, userId, sessionId, cmd.state, s.lastUpdateTime);
        adopt(cmd.c, s, m, expectView(s, m));
        break;
      }
      case 'get': {
        const [appName, userId, sessionId] = keyOf(cmd);
        const conf = {
          ...(cmd.recent !== null ? { numRecentEvents: cmd.recent } : {}),
          ...(cmd.after !== null ? { afterTimestamp: baseTime + cmd.after } : {}),
        };
        const s = await client(cmd.c).getSession({ appName, userId, sessionId, config: conf });
        const m = model.get(appName, userId, sessionId);
        if (!m) {
          expect(s).toBeUndefined();
          break;
        }
        adopt(cmd.c, s as Session, m, expectView(s, m, conf));
        break;
      }
      case 'list': {
        const request: ListRequest = {
          appName: config.apps[cmd.app] as string,
          ...(cmd.user !== null ? { userId: config.users[cmd.user] as string } : {}),
          ...(cmd.order !== null ? { order: cmd.order } : {}),
          ...(cmd.limit !== null ? { limit: cmd.limit } : {}),
          ...(cmd.page !== null ? { page: cmd.page } : {}),
          ...(cmd.offset !== null ? { offset: cmd.offset } : {}),
        };
        if (request.page !== undefined && request.limit === undefined) {
          await expectFailure(client(cmd.c).listSessions(request), InvalidInputError);
          break;
        }
        const listed = await client(cmd.c).listSessions(request);
        const expected = model.list(request);
        expect(canonical({ ...listed, sessions: listed.sessions })).toBe(canonical(expected));
        const first = listed.sessions[0];
        if (first) adopt(cmd.c, first, model.get(first.appName, first.userId, first.id) as ModelSession, []);
        break;
      }
      case 'append': {
        const handle = handles[cmd.h % Math.max(1, handles.length)];
        if (!handle) break;
        stats.appendsTried++;
        const ts = baseTime + cmd.ts;
        const kind = cmd.kind;
        if (typeof kind === 'object') {
          const bad = spoil(makeEvent(ts, cmd.delta), kind.invalid);
          await expectFailure(
            client(handle.client).appendEvent({ session: handle.obj, event: bad as Event }),
            InvalidInputError,
          );
          expectObjectMatches(handle);
          break;
        }
        if (kind === 'partial') {
          const event = { ...makeEvent(ts, cmd.delta), partial: true };
          const returned = await client(handle.client).appendEvent({ session: handle.obj, event });
          expect(returned).toBe(event);
          expectObjectMatches(handle);
          break;
        }
        let target = handle;
        let via = handle.client;
        if (kind === 'foreign') {
          // A copy the front never handed out: only lastUpdateTime can tell whether it is stale.
          target = {
            ...handle,
            obj: structuredClone(handle.obj),
            ref: null,
            eventIds: [...handle.eventIds],
            state: structuredClone(handle.state),
          };
          handles.push(target);
          via = cmd.via;
          target.client = via;
        }
        const delta = kind === 'temp' ? { ...cmd.delta, 'temp:scratch': ts } : cmd.delta;
        const m = model.get(handle.obj.appName, handle.obj.userId, handle.obj.id);
        const reused =
          kind === 'reuse-id' && m && m.events.length > 0
            ? m.events[Math.abs(cmd.ts) % m.events.length]?.id
            : undefined;
        const event = makeEvent(ts, structuredClone(delta), reused);
        const expected = outcomeFor(target);
        const before = target.obj.lastUpdateTime;
        const pending = client(via).appendEvent({ session: target.obj, event });
        if (expected === 'not-found') await expectFailure(pending, SessionNotFoundError);
        else if (expected === 'stale') await expectFailure(pending, StaleSessionError);
        else {
          expect(await pending).toBe(event);
          stored(target, event, delta);
        }
        expect(target.obj.lastUpdateTime).toBe(expected === 'stored' ? ts : before);
        expectObjectMatches(target);
        break;
      }
      case 'burst': {
        const handle = handles[cmd.h % Math.max(1, handles.length)];
        if (!handle) break;
        const expected = outcomeFor(handle);
        const events = cmd.deltas.map((d, i) => makeEvent(baseTime + cmd.ts + i, structuredClone(d)));
        stats.appendsTried += events.length;
        // Issued in one turn from one session object: one writer, so all are stored in call order or none is.
        const results = await Promise.allSettled(
          events.map((event) => client(handle.client).appendEvent({ session: handle.obj, event })),
        );
        results.forEach((r, i) => {
          if (expected === 'stored') {
            expect(r.status).toBe('fulfilled');
            stored(handle, events[i] as Event & Record<string, unknown>, cmd.deltas[i] as Delta);
          } else {
            expect(r.status).toBe('rejected');
            const error = (r as PromiseRejectedResult).reason;
            countRejection(stats, error);
            expect(error).toBeInstanceOf(expected === 'stale' ? StaleSessionError : SessionNotFoundError);
          }
        });
        expectObjectMatches(handle);
        break;
      }
      case 'fanout': {
        // One client appends to several different sessions in one turn: in-thread they share one
        // group-commit transaction, which is where keys of different sessions could get mixed up.
        const seen = new Set<string>();
        const targets = handles.filter((hd) => {
          const k = JSON.stringify([hd.obj.appName, hd.obj.userId, hd.obj.id]);
          if (hd.client !== cmd.c % clients.length || hd.ref === null || seen.has(k)) return false;
          seen.add(k);
          return true;
        });
        const picked = targets.slice(-cmd.deltas.length);
        const plans = picked.map((hd, i) => ({
          hd,
          delta: cmd.deltas[i] as Delta,
          event: makeEvent(baseTime + cmd.ts + i, structuredClone(cmd.deltas[i] as Delta)),
          expected: outcomeFor(hd),
        }));
        stats.appendsTried += plans.length;
        const results = await Promise.allSettled(
          plans.map((p) => client(cmd.c).appendEvent({ session: p.hd.obj, event: p.event })),
        );
        results.forEach((r, i) => {
          const p = plans[i] as (typeof plans)[number];
          if (p.expected === 'stored') {
            expect(r.status).toBe('fulfilled');
            stored(p.hd, p.event, p.delta);
          } else {
            expect(r.status).toBe('rejected');
            const error = (r as PromiseRejectedResult).reason;
            countRejection(stats, error);
            expect(error).toBeInstanceOf(p.expected === 'stale' ? StaleSessionError : SessionNotFoundError);
          }
          expectObjectMatches(p.hd);
        });
        break;
      }
      case 'race': {
        const [appName, userId, sessionId] = keyOf(cmd);
        const m = model.get(appName, userId, sessionId);
        const [sa, sb] = await Promise.all([
          client(cmd.a).getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } }),
          client(cmd.b).getSession({ appName, userId, sessionId, config: { numRecentEvents: 1 } }),
        ]);
        if (!m) {
          expect([sa, sb]).toEqual([undefined, undefined]);
          break;
        }
        const ha = adopt(cmd.a, sa as Session, m, expectView(sa, m, { numRecentEvents: 1 }));
        const hb = adopt(cmd.b, sb as Session, m, expectView(sb, m, { numRecentEvents: 1 }));
        const ea = makeEvent(baseTime + cmd.ts, structuredClone(cmd.delta));
        const eb = makeEvent(baseTime + cmd.ts, structuredClone(cmd.delta));
        stats.appendsTried += 2;
        // Both copies are at the same revision: exactly one append can win, the other is stale.
        const [ra, rb] = await Promise.allSettled([
          client(cmd.a).appendEvent({ session: ha.obj, event: ea }),
          client(cmd.b).appendEvent({ session: hb.obj, event: eb }),
        ]);
        const won = [ra, rb].filter((r) => r.status === 'fulfilled');
        expect(won).toHaveLength(1);
        const [winner, event, loser] = ra.status === 'fulfilled' ? [ha, ea, rb] : [hb, eb, ra];
        const error = (loser as PromiseRejectedResult).reason;
        countRejection(stats, error);
        expect(error).toBeInstanceOf(StaleSessionError);
        stored(winner, event, cmd.delta);
        expectObjectMatches(ha);
        expectObjectMatches(hb);
        break;
      }
      case 'createRace': {
        const [appName, userId, sessionId] = keyOf(cmd);
        const existed = model.get(appName, userId, sessionId) !== undefined;
        const results = await Promise.allSettled([
          client(cmd.a).createSession({ appName, userId, sessionId, state: { by: 'a' } }),
          client(cmd.b).createSession({ appName, userId, sessionId, state: { by: 'b' } }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<Session>[];
        for (const r of results)
          if (r.status === 'rejected') {
            countRejection(stats, r.reason);
            expect(r.reason).toBeInstanceOf(AlreadyExistsError);
          }
        expect(won).toHaveLength(existed ? 0 : 1);
        const winner = won[0];
        if (winner) {
          const m = model.create(
            appName,
            userId,
            sessionId,
            { by: winner.value.state.by },
            winner.value.lastUpdateTime,
          );
          adopt(results[0] === winner ? cmd.a : cmd.b, winner.value, m, expectView(winner.value, m));
        }
        break;
      }
      case 'delete': {
        const [appName, userId, sessionId] = keyOf(cmd);
        await client(cmd.c).deleteSession({ appName, userId, sessionId });
        model.delete(appName, userId, sessionId);
        break;
      }
    }
    // After every step, from a client that did not necessarily make the change: the whole store equals the model.
    const reader = client(stats.commands);
    expect(await dumpStore(reader, universe)).toBe(canonical(model.dump(universe)));
    stats.checks++;
  }
}

/** Stats as one flat record, for `report`. */
export function statsFigures(stats: ModelStats): Record<string, number> {
  const { rejected, ...rest } = stats;
  return { ...rest, ...Object.fromEntries(Object.entries(rejected).map(([k, v]) => [`rejected.${k}`, v])) };
}
