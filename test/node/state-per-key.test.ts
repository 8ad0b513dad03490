/**
 * State kept per key: an append writes its event, the state keys its delta sets
 * and the session's small head, never the state it leaves alone; and what the
 * store answers for every scope after many appends (awaited one by one and
 * group-committed together) matches a plain reference model.
 */
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexedDbSessionService, type Session } from '../../src/index.js';
import { applyTo, put } from '../reliability/model.js';

let n = 0;
const event = (stateDelta: Record<string, unknown>) => ({
  id: `e${++n}`,
  invocationId: 'inv',
  author: 'agent',
  timestamp: 1_720_000_000_000 + n,
  actions: { stateDelta },
});

/** Every put the store makes, by object store, as [store, value]. */
function recordPuts(): { name: string; value: unknown }[] {
  const puts: { name: string; value: unknown }[] = [];
  const original = IDBObjectStore.prototype.put;
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value, key) {
    puts.push({ name: this.name, value: structuredClone(value) });
    return original.call(this, value, key);
  });
  return puts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an append writes what it changes', () => {
  it('writes the event, the keys its delta sets and a small head, whatever the state kept', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'per-key' });
    const big = 'x'.repeat(10_000);
    const state: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) {
      state[`doc${i}`] = big;
      state[`user:doc${i}`] = big;
      state[`app:doc${i}`] = big;
    }
    const session = await store.createSession({ appName: 'a', userId: 'u', sessionId: 's', state });
    const puts = recordPuts();
    await store.appendEvent({ session, event: event({ step: 1, 'user:seen': true, 'temp:t': big }) });
    await store.appendEvent({ session, event: event({ 'app:count': 2 }) });
    await store.appendEvent({ session, event: event({}) });

    // The light session key rides in the head the append writes anyway; shared keys are a record each.
    expect(puts.map((p) => p.name).sort()).toEqual(
      ['events', 'events', 'events', 'sessions', 'sessions', 'sessions', 'state', 'state'].sort(),
    );
    expect(puts.filter((p) => p.name === 'state').map((p) => p.value)).toEqual([
      { k: ['u', 'a', 'u', 'seen'], v: true },
      { k: ['a', 'a', 'count'], v: 2 },
    ]);
    expect(puts.find((p) => p.name === 'sessions')?.value).toMatchObject({ state: { step: 1 } });
    // 600 KB of state, and no append wrote more than a few hundred bytes of it.
    const written = puts.reduce((sum, p) => sum + JSON.stringify(p.value).length, 0);
    expect(written).toBeLessThan(3000);
    const reloaded = (await store.getSession({ appName: 'a', userId: 'u', sessionId: 's' })) as Session;
    expect(reloaded.state).toEqual({ ...state, step: 1, 'user:seen': true, 'app:count': 2 });
    await store.close();
  });
});

describe('a session value kept by its weight', () => {
  it('moves between the head and a record of its own as it grows and shrinks, the head staying small', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'weights' });
    const session = await store.createSession({ appName: 'a', userId: 'u', sessionId: 's', state: { doc: 'small' } });
    const puts = recordPuts();
    const values = ['x'.repeat(5000), 'y', { list: Array.from({ length: 500 }, (_, i) => i) }, null, 'z'.repeat(900)];
    // Many light keys too: past the head's share, they are records of their own as well.
    for (let i = 0; i < 40; i++) values.push({ [`k${i}`]: 'v'.repeat(600) } as never);
    let expected: Record<string, unknown> = { doc: 'small' };
    for (const [i, value] of values.entries()) {
      const delta = i < 5 ? { doc: value } : (value as Record<string, unknown>);
      await store.appendEvent({ session, event: event(delta) });
      expected = { ...expected, ...delta };
      const reloaded = (await store.getSession({ appName: 'a', userId: 'u', sessionId: 's' })) as Session;
      expect(reloaded.state).toEqual(expected);
    }
    const heads = puts.filter((p) => p.name === 'sessions').map((p) => JSON.stringify(p.value).length);
    expect(Math.max(...heads)).toBeLessThan(10_000);
    const listed = await store.listSessions({ appName: 'a', userId: 'u' });
    expect(listed.sessions[0]?.state).toEqual(expected);
    await store.close();
  });
});

describe('state across scopes after many appends', () => {
  it('matches a reference model for every session, user and app', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'model' });
    let seed = 7;
    const random = (k: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % k;
    };
    const keys = ['a', 'b', '__proto__', 'constructor', 'user:a', 'user:__proto__', 'app:a', 'app:b', 'temp:a'];
    // Light values and heavy ones, so session keys move between the head and records of their own.
    const values = [0, 'v', null, { nested: [1, { deep: true }] }, [], '', 'h'.repeat(3000)];
    const addresses = [
      { appName: 'one', userId: 'ada', sessionId: 's1' },
      { appName: 'one', userId: 'ada', sessionId: 's2' },
      { appName: 'one', userId: 'bob', sessionId: 's1' },
      { appName: 'two', userId: 'ada', sessionId: 's1' },
    ];
    const model = {
      session: new Map<string, Record<string, unknown>>(),
      user: new Map<string, Record<string, unknown>>(),
      app: new Map<string, Record<string, unknown>>(),
    };
    const scope = (map: Map<string, Record<string, unknown>>, key: string) => {
      if (!map.has(key)) map.set(key, {});
      return map.get(key) as Record<string, unknown>;
    };
    const apply = (a: (typeof addresses)[number], delta: Record<string, unknown>) => {
      for (const key of Object.keys(delta)) {
        if (key.startsWith('temp:')) continue;
        if (key.startsWith('app:')) put(scope(model.app, a.appName), key.slice(4), delta[key]);
        else if (key.startsWith('user:')) put(scope(model.user, `${a.appName}/${a.userId}`), key.slice(5), delta[key]);
        else put(scope(model.session, `${a.appName}/${a.userId}/${a.sessionId}`), key, delta[key]);
      }
    };
    const sessions = await Promise.all(addresses.map((a) => store.createSession(a)));
    const randomDelta = () => {
      const delta: Record<string, unknown> = {};
      for (let k = random(4); k > 0; k--)
        put(delta, keys[random(keys.length)] as string, values[random(values.length)]);
      return delta;
    };
    for (let round = 0; round < 60; round++) {
      if (round % 3 === 0) {
        // One append per session at once: a group commit.
        const deltas = sessions.map(randomDelta);
        await Promise.all(sessions.map((s, i) => store.appendEvent({ session: s, event: event(deltas[i] ?? {}) })));
        deltas.forEach((d, i) => {
          apply(addresses[i] as (typeof addresses)[number], d);
        });
      } else {
        const i = random(sessions.length);
        const delta = randomDelta();
        await store.appendEvent({ session: sessions[i] as Session, event: event(delta) });
        apply(addresses[i] as (typeof addresses)[number], delta);
      }
    }
    const merged = (a: (typeof addresses)[number]) => {
      const state: Record<string, unknown> = {};
      applyTo(state, model.session.get(`${a.appName}/${a.userId}/${a.sessionId}`) ?? {});
      for (const [k, v] of Object.entries(model.app.get(a.appName) ?? {})) put(state, `app:${k}`, v);
      for (const [k, v] of Object.entries(model.user.get(`${a.appName}/${a.userId}`) ?? {})) put(state, `user:${k}`, v);
      return state;
    };
    for (const a of addresses) {
      const stored = (await store.getSession(a)) as Session;
      expect(stored.state).toEqual(merged(a));
      expect(await store.getUserState(a)).toEqual(model.user.get(`${a.appName}/${a.userId}`) ?? {});
      expect(await store.getAppState(a)).toEqual(model.app.get(a.appName) ?? {});
    }
    for (const appName of ['one', 'two']) {
      const listed = await store.listSessions({ appName });
      for (const s of listed.sessions) expect(s.state).toEqual(merged({ appName, userId: s.userId, sessionId: s.id }));
    }
    expect(
      Object.hasOwn((await store.getUserState(addresses[0] as (typeof addresses)[number])) ?? {}, '__proto__'),
    ).toBe(Object.hasOwn(model.user.get('one/ada') ?? {}, '__proto__'));
    await store.close();
  });
});
