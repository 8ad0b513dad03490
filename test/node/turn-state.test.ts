/**
 * `TurnState` and `appendWithState`: ADK's `State` value/delta semantics for
 * apps without ADK, checked operation by operation against ADK's own `State`,
 * then end to end on the store.
 */
import { State } from '@google/adk';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendWithState,
  type Event,
  IndexedDbSessionService,
  InvalidInputError,
  type Session,
  StaleSessionError,
  TurnState,
} from '../../src/index.js';

type Op = ['set', string, unknown] | ['update', Record<string, unknown>];

const base = { topic: 'birds', 'user:name': 'Ada', 'app:plan': 'free', nothing: null, count: 1 };
const opLists: Op[][] = [
  [],
  [['set', 'topic', 'boats']],
  [
    ['set', 'count', 2],
    ['set', 'count', 3],
  ],
  [
    ['set', 'fresh', { a: [1, 2] }],
    ['set', 'user:name', 'Grace'],
    ['set', 'app:plan', 'pro'],
    ['set', 'temp:draft', 'x'],
  ],
  [
    ['set', 'nothing', 'now something'],
    ['set', 'topic', null],
  ],
  [
    ['update', { a: 1, 'temp:b': 2 }],
    ['set', 'a', 3],
  ],
];
const probes = ['topic', 'user:name', 'app:plan', 'nothing', 'count', 'fresh', 'temp:draft', 'a', 'temp:b', 'absent'];

describe('TurnState, operation by operation against ADK State', () => {
  for (const ops of opLists) {
    it(ops.length === 0 ? 'no writes' : ops.map((op) => JSON.stringify(op.slice(1))).join(' then '), () => {
      const adkDelta: Record<string, unknown> = {};
      const adk = new State(structuredClone(base), adkDelta);
      const ours = new TurnState(structuredClone(base));
      const check = () => {
        for (const key of probes) {
          expect(ours.get(key), key).toEqual(adk.get(key));
          expect(ours.get(key, 'default'), key).toEqual(adk.get(key, 'default'));
          expect(ours.has(key), key).toBe(adk.has(key));
        }
        expect(ours.hasDelta()).toBe(adk.hasDelta());
        expect(ours.toDelta()).toEqual(adkDelta);
        expect(ours.toRecord()).toEqual(adk.toRecord());
      };
      check();
      for (const op of ops) {
        if (op[0] === 'set') {
          adk.set(op[1], op[2]);
          ours.set(op[1], op[2]);
        } else {
          adk.update(op[1]);
          ours.update(op[1]);
        }
        check();
      }
    });
  }
});

describe('TurnState', () => {
  it('never writes to its base: the store updates the session object once the append commits', () => {
    const sessionState = { topic: 'birds' };
    const turn = new TurnState(sessionState);
    turn.set('topic', 'boats');
    turn.set('temp:x', 1);
    expect(sessionState).toEqual({ topic: 'birds' });
    expect(turn.get('topic')).toBe('boats');
  });

  it('keeps __proto__ and other inherited names as plain keys', () => {
    const turn = new TurnState(JSON.parse('{"__proto__": "stored"}'));
    expect(turn.get('__proto__')).toBe('stored');
    expect(turn.has('constructor')).toBe(false);
    expect(turn.get('toString')).toBeUndefined();
    turn.set('__proto__', { polluted: true });
    expect(turn.toDelta()).toEqual(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.hasOwn(turn.toDelta(), '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects values that are not plain JSON with an InvalidInputError naming the key and the path', () => {
    const turn = new TurnState();
    const bad: [unknown, RegExp][] = [
      [new Set([1]), /when: .*Set/],
      [() => 1, /when: .*function/],
      [Number.NaN, /when: .*finite/],
      [undefined, /when: .*undefined/],
      [{ deep: [1, undefined] }, /when\.deep\[1\]: .*undefined/],
      [new Map(), /when: .*Map/],
    ];
    for (const [value, message] of bad) {
      expect(() => turn.set('when', value)).toThrow(InvalidInputError);
      expect(() => turn.set('when', value)).toThrow(message);
    }
    expect(turn.hasDelta()).toBe(false);
  });
});

describe('appendWithState', () => {
  let store: IndexedDbSessionService;
  let session: Session;
  let clock = 100;
  const key = { appName: 'chat', userId: 'u1', sessionId: 's1' };
  const reply = (over: Partial<Event> = {}): Event => ({
    id: `e${++clock}`,
    invocationId: 'turn-1',
    author: 'bot',
    timestamp: clock,
    content: { role: 'model', parts: [{ text: 'ok' }] },
    ...over,
  });

  beforeEach(async () => {
    store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'turn-state' });
    session = await store.createSession({ ...key, state: { topic: 'birds' } });
  });
  afterEach(async () => {
    await store.close();
  });

  it('turns the writes into the event stateDelta: stored on every scope, temp: only in the session object', async () => {
    const turn = new TurnState(session.state);
    turn.set('topic', 'boats');
    turn.set('user:name', 'Ada');
    turn.set('app:visits', 1);
    turn.set('temp:draft', 'scratch');
    const event = reply();
    const stored = await appendWithState(store, session, event, turn);

    expect(stored.actions?.stateDelta).toEqual({ topic: 'boats', 'user:name': 'Ada', 'app:visits': 1 });
    expect(event.actions).toBeUndefined();
    expect(turn.hasDelta()).toBe(false);
    // The session object was updated in place, temp: included; the view still reads it.
    expect(session.state).toEqual({ topic: 'boats', 'user:name': 'Ada', 'app:visits': 1, 'temp:draft': 'scratch' });
    expect(turn.get('temp:draft')).toBe('scratch');
    const loaded = await store.getSession(key);
    expect(loaded?.state).toEqual({ topic: 'boats', 'user:name': 'Ada', 'app:visits': 1 });
    expect(loaded?.events.map((e) => e.actions?.stateDelta)).toEqual([
      { topic: 'boats', 'user:name': 'Ada', 'app:visits': 1 },
    ]);
    expect(await store.getUserState({ appName: 'chat', userId: 'u1' })).toEqual({ name: 'Ada' });
  });

  it("lets the event's own stateDelta win over the view for the same key", async () => {
    const turn = new TurnState(session.state);
    turn.set('topic', 'from the view');
    turn.set('other', 1);
    await appendWithState(store, session, reply({ actions: { stateDelta: { topic: 'from the event' } } }), turn);
    expect((await store.getSession(key))?.state).toEqual({ topic: 'from the event', other: 1 });
  });

  it('keeps the writes pending when the append fails, so a reload and a second call store them', async () => {
    const turn = new TurnState(session.state);
    turn.set('topic', 'boats');
    const elsewhere = await store.getSession(key);
    if (!elsewhere) throw new Error('missing');
    await store.appendEvent({ session: elsewhere, event: reply() }); // another tab moves the session on
    await expect(appendWithState(store, session, reply(), turn)).rejects.toBeInstanceOf(StaleSessionError);
    expect(turn.toDelta()).toEqual({ topic: 'boats' });

    const fresh = await store.getSession(key);
    if (!fresh) throw new Error('missing');
    await appendWithState(store, fresh, reply(), turn);
    expect(turn.hasDelta()).toBe(false);
    expect((await store.getSession(key))?.state).toEqual({ topic: 'boats' });
    expect(turn.get('topic')).toBe('boats');
  });

  it('keeps the writes pending for a partial event, which is never stored', async () => {
    const turn = new TurnState(session.state);
    turn.set('topic', 'boats');
    await appendWithState(store, session, reply({ partial: true }), turn);
    expect(turn.toDelta()).toEqual({ topic: 'boats' });
    expect((await store.getSession(key))?.events).toEqual([]);
  });
});
