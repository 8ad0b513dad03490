/**
 * Generated malformed requests. Each method's request is described as slots
 * (paths with a kind: id, JSON data, integer, enum, ...); a bad call takes a
 * valid request against real seeded data and breaks exactly one slot in a way
 * that kind forbids, or replaces the whole request with something hostile.
 * Every one must be rejected with a typed error and leave no trace.
 */
import fc from 'fast-check';
import type { Session } from '../../src/index.js';
import { objectOf } from './arbitraries.js';

export type Method =
  | 'createSession'
  | 'getOrCreateSession'
  | 'getSession'
  | 'listSessions'
  | 'deleteSession'
  | 'appendEvent'
  | 'getUserState'
  | 'getAppState'
  | 'rewind'
  | 'erase';

/** What the host (worker side) serves, for raw calls that bypass the page-side client. */
export type HostMethod =
  | 'hello'
  | 'createSession'
  | 'getSession'
  | 'listSessions'
  | 'deleteSession'
  | 'appendEvents'
  | 'getUserState'
  | 'getAppState'
  | 'rewind'
  | 'erase';

type SlotKind =
  | 'id'
  | 'data'
  | 'shallowObject'
  | 'nonNegInt'
  | 'posInt'
  | 'number'
  | 'nonNegNumber'
  | 'enum'
  | 'string'
  | 'bool'
  | 'array'
  | 'object'
  | 'nullableObject';

interface Slot {
  path: (string | number)[];
  kind: SlotKind;
  required: boolean;
  /** Inside an event or an initial state: judged by its JSON form, which is what the store checks and keeps. */
  json?: boolean;
  /** Inside an event, where a field whose value is `undefined` is an absent field (as in ADK's own events). */
  inEvent?: boolean;
}

export interface Seed {
  appName: string;
  userId: string;
  sessionId: string;
  /** A live session object from the client under test (so a valid append would really append). */
  session: Session;
  /** The stored revision of `session`, for raw append batches. */
  ref?: { uid: string; revision: number };
}

export interface BadCall<M extends string = string> {
  method: M;
  request: unknown;
  /** Human-readable: which slot was broken and how; printed when a case fails. */
  defect: string;
  [fc.toStringMethod]?: () => string;
}

// ---- hostile values -------------------------------------------------------

/** Built once: big enough to break the size limits, shared so fuzzing does not exhaust memory. */
let hugeString: string | undefined;
const huge = (): string => {
  hugeString ??= 'x'.repeat(9 * 1024 * 1024);
  return hugeString;
};

function deep(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { d: value };
  return value;
}

function cycle(): unknown {
  const a: Record<string, unknown> = { name: 'a' };
  const b: Record<string, unknown> = { back: a };
  a.next = b;
  return a;
}

function throwingGetter(): unknown {
  return Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('getter exploded');
    },
  });
}

/** Plain data when validated, a function by the time it is cloned or stored. */
function shapeShifter(): unknown {
  let reads = 0;
  return Object.defineProperty({}, 'later', {
    enumerable: true,
    get: () => (reads++ === 0 ? 'harmless' : () => 'not data'),
  });
}

function revokedProxy(): unknown {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

class Point {
  x = 1;
  y = 2;
}

/** Values that are not plain JSON data, anywhere inside state, deltas or events. */
export const BAD_DATA: [string, () => unknown][] = [
  ['undefined', () => undefined],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['-Infinity', () => Number.NEGATIVE_INFINITY],
  ['function', () => () => 1],
  ['symbol', () => Symbol('s')],
  ['bigint', () => 10n],
  ['Map', () => new Map([['a', 1]])],
  ['Set', () => new Set([1])],
  ['RegExp', () => /re/g],
  ['Error', () => new Error('e')],
  ['Uint8Array', () => new Uint8Array(4)],
  ['ArrayBuffer', () => new ArrayBuffer(4)],
  ['Blob', () => new Blob(['b'])],
  [
    'toJSON that throws',
    () => ({
      toJSON: () => {
        throw new Error('no JSON');
      },
    }),
  ],
  ['toJSON that returns a function', () => ({ toJSON: () => () => 1 })],
  // biome-ignore lint/suspicious/noSparseArray: holes are the defect
  ['sparse array', () => [1, , 3]],
  ['cycle', cycle],
  ['nested 65 deep', () => deep(65)],
  ['nested 5000 deep', () => deep(5000)],
  ['nested 100000 deep', () => deep(100_000)],
  ['throwing getter', throwingGetter],
  ['getter that turns into a function', shapeShifter],
  ['revoked proxy', revokedProxy],
  ['string over the size limit', huge],
  ['array over the size limit', () => new Array(1_200_000).fill(123456)],
];

/** Values of the wrong type for any slot that wants something else. */
const WRONG_TYPES: [string, () => unknown][] = [
  ['null', () => null],
  ['number', () => 42],
  ['negative number', () => -5],
  ['fraction', () => 1.5],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['boolean', () => true],
  ['string', () => 'str'],
  ['empty string', () => ''],
  ['array', () => [1, 2]],
  ['object', () => ({ a: 1 })],
  ['function', () => () => 1],
  ['symbol', () => Symbol('s')],
  ['bigint', () => 10n],
  ['Date', () => new Date(0)],
  ['Map', () => new Map()],
  ['class instance', () => new Point()],
  ['revoked proxy', revokedProxy],
];

const BAD_IDS: [string, () => unknown][] = [
  ['empty id', () => ''],
  ['leading space', () => ' id'],
  ['trailing space', () => 'id '],
  ['only whitespace', () => '\t\n'],
  ['trailing NBSP', () => 'id\u00A0'],
  ['leading BOM', () => '\uFEFFid'],
  ['1025 chars', () => 'i'.repeat(1025)],
  ['9 MB', huge],
];

/** Wrong-type values that are nevertheless valid for `kind` are filtered out. */
function validFor(kind: SlotKind, value: unknown): boolean {
  switch (kind) {
    case 'id':
      return typeof value === 'string' && value.length > 0 && value.length <= 1024 && value.trim() === value;
    case 'string':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'nonNegNumber':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0;
    case 'nonNegInt':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'posInt':
      return Number.isInteger(value) && (value as number) >= 1;
    case 'array':
      return Array.isArray(value);
    case 'enum':
      return false;
    case 'data':
    case 'shallowObject':
    case 'object':
      return (
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.getPrototypeOf(value) === Object.prototype
      );
    case 'nullableObject':
      return value === null || validFor('object', value);
  }
}

/**
 * Names of values that structured cloning turns into valid plain data (it keeps
 * own enumerable string keys only): malformed on this side of a postMessage,
 * not once they arrive.
 */
export const VALID_AFTER_CLONE = new Set([
  // The clone reads the getter once and keeps the harmless first value.
  'getter that turns into a function',
]);

/**
 * Objects of any class are accepted where a request has structure (a request,
 * its `config`, a session object: ADK's own objects may be class instances);
 * only JSON data slots demand plain objects.
 */
const isObjectLike = (value: unknown): boolean =>
  (typeof value === 'object' && value !== null && !Array.isArray(value)) || typeof value === 'function';

/** What `JSON.stringify` would make of `value` (a Date becomes its string), or `value` itself if nothing. */
function jsonFormOf(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? value : JSON.parse(text);
  } catch {
    return value;
  }
}

function badValuesFor({ kind, json, inEvent }: Slot): [string, () => unknown][] {
  const structural = kind === 'object' || kind === 'nullableObject';
  const wrong = WRONG_TYPES.filter(([name, make]) => {
    if (structural && name === 'revoked proxy') return true;
    try {
      // JSON turns a class instance into a plain object and a Date into a string: as such they may be valid.
      const value = json ? jsonFormOf(make()) : make();
      if (structural) return typeof value === 'function' || (!isObjectLike(value) && !validFor(kind, value));
      return !validFor(kind, value);
    } catch {
      return true;
    }
  });
  switch (kind) {
    case 'id':
      return [...wrong, ...BAD_IDS];
    case 'data':
      // Bad data as the value itself, under a key, and inside an array.
      return [
        ...wrong,
        ...BAD_DATA.filter(([name]) => !(inEvent && name === 'undefined')).map(
          ([name, make]): [string, () => unknown] => [`{k: ${name}}`, () => ({ k: make() })],
        ),
        ...BAD_DATA.map(([name, make]): [string, () => unknown] => [
          `{__proto__(own key): {x: [${name}]}}`,
          () => objectOf([['__proto__', { x: [make()] }]]),
        ]),
      ];
    case 'enum':
      return [...wrong, ['unknown member', () => 'bogus'], ['wrong case', () => 'ASC']];
    case 'nonNegNumber':
      return [...wrong, ['-1', () => -1], ['-Infinity', () => Number.NEGATIVE_INFINITY]];
    case 'posInt':
      return [...wrong, ['0', () => 0]];
    default:
      return wrong;
  }
}

/** Whole requests that are not requests at all. */
const NOT_REQUESTS: [string, () => unknown][] = [
  ['undefined', () => undefined],
  ...WRONG_TYPES.filter(([name]) => name !== 'object'),
  [
    'throwing getter on a field',
    () =>
      Object.defineProperty({}, 'appName', {
        enumerable: true,
        get: () => {
          throw new Error('getter exploded');
        },
      }),
  ],
  [
    'proxy whose traps throw',
    () =>
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap');
          },
          ownKeys() {
            throw new Error('trap');
          },
          getPrototypeOf() {
            throw new Error('trap');
          },
        },
      ),
  ],
  ['object with null prototype and no fields', () => Object.create(null)],
];

// ---- requests as slots ----------------------------------------------------

function validEvent(): Record<string, unknown> {
  return {
    id: `fuzz-${Math.random().toString(36).slice(2)}`,
    invocationId: 'inv',
    author: 'user',
    timestamp: 1_700_000_000_000,
    content: { role: 'user', parts: [{ text: 'hello' }] },
    actions: { stateDelta: { k: 1, 'user:u': 2, 'app:a': 3 }, artifactDelta: {} },
    customMetadata: { m: 1 },
    longRunningToolIds: ['t1'],
  };
}

const eventFields = (at: (string | number)[]): Omit<Slot, 'json' | 'inEvent'>[] => [
  { path: at, kind: 'object', required: true },
  { path: [...at, 'id'], kind: 'id', required: true },
  { path: [...at, 'timestamp'], kind: 'nonNegNumber', required: true },
  { path: [...at, 'invocationId'], kind: 'string', required: false },
  { path: [...at, 'author'], kind: 'string', required: false },
  { path: [...at, 'partial'], kind: 'bool', required: false },
  { path: [...at, 'content'], kind: 'object', required: false },
  { path: [...at, 'content', 'parts'], kind: 'array', required: false },
  { path: [...at, 'content', 'parts', 0, 'text'], kind: 'string', required: false },
  { path: [...at, 'actions'], kind: 'object', required: false },
  { path: [...at, 'actions', 'stateDelta'], kind: 'data', required: false },
  { path: [...at, 'customMetadata'], kind: 'data', required: false },
  { path: [...at, 'longRunningToolIds'], kind: 'array', required: false },
];
const eventSlots = (at: (string | number)[]): Slot[] =>
  eventFields(at).map((slot) => ({ ...slot, json: true, inEvent: true }));

const keySlots = (withSession: boolean): Slot[] => [
  { path: ['appName'], kind: 'id', required: true },
  { path: ['userId'], kind: 'id', required: true },
  ...(withSession ? [{ path: ['sessionId'], kind: 'id' as const, required: true }] : []),
];

interface Template<M extends string> {
  method: M;
  make(seed: Seed): Record<string, unknown>;
  slots: Slot[];
  /** Whole-request replacements that are objects would be valid where every field is optional. */
  primitiveWholeOnly?: boolean;
}

const createSlots: Slot[] = [
  ...keySlots(false),
  { path: ['sessionId'], kind: 'id', required: false },
  { path: ['state'], kind: 'data', required: false, json: true },
];
const getSlots: Slot[] = [
  ...keySlots(true),
  { path: ['config'], kind: 'object', required: false },
  { path: ['config', 'numRecentEvents'], kind: 'nonNegInt', required: false },
  { path: ['config', 'afterTimestamp'], kind: 'number', required: false },
];
const listSlots: Slot[] = [
  { path: ['appName'], kind: 'id', required: true },
  { path: ['userId'], kind: 'id', required: false },
  { path: ['limit'], kind: 'nonNegInt', required: false },
  { path: ['offset'], kind: 'nonNegInt', required: false },
  { path: ['page'], kind: 'posInt', required: false },
  { path: ['order'], kind: 'enum', required: false },
];
const stateSlots: Slot[] = keySlots(false);
const rewindSlots: Slot[] = [...keySlots(true), { path: ['beforeInvocationId'], kind: 'id', required: true }];
const eraseSlots: Slot[] = [
  ...keySlots(true),
  { path: ['eventIds'], kind: 'array', required: false },
  { path: ['eventIds', 0], kind: 'id', required: false },
  { path: ['invocationId'], kind: 'id', required: false },
];
const appSlots: Slot[] = [{ path: ['appName'], kind: 'id', required: true }];

const create = (s: Seed) => ({ appName: s.appName, userId: s.userId, sessionId: 'fuzz-created', state: { a: 1 } });
const get = (s: Seed) => ({
  appName: s.appName,
  userId: s.userId,
  sessionId: s.sessionId,
  config: { numRecentEvents: 2, afterTimestamp: 0 },
});
const list = (s: Seed) => ({ appName: s.appName, userId: s.userId, limit: 2, page: 1, order: 'desc' });
const key = (s: Seed) => ({ appName: s.appName, userId: s.userId, sessionId: s.sessionId });
// Valid as made (the seeded session has these events and invocations): only the broken slot makes a call bad.
const rewind = (s: Seed) => ({ ...key(s), beforeInvocationId: 'inv-1' });
const erase = (s: Seed) => ({ ...key(s), eventIds: ['seed-0'], invocationId: 'inv-2' });

export const CLIENT_TEMPLATES: Template<Method>[] = [
  { method: 'createSession', make: create, slots: createSlots },
  { method: 'getOrCreateSession', make: create, slots: createSlots },
  { method: 'getSession', make: get, slots: getSlots },
  { method: 'listSessions', make: list, slots: listSlots },
  { method: 'deleteSession', make: key, slots: keySlots(true) },
  {
    method: 'appendEvent',
    make: (s) => ({ session: s.session, event: validEvent(), durability: 'relaxed' }),
    slots: [
      { path: ['session'], kind: 'object', required: true },
      { path: ['session', 'id'], kind: 'id', required: true },
      { path: ['session', 'appName'], kind: 'id', required: true },
      { path: ['session', 'userId'], kind: 'id', required: true },
      { path: ['session', 'state'], kind: 'shallowObject', required: true },
      { path: ['session', 'events'], kind: 'array', required: true },
      { path: ['session', 'lastUpdateTime'], kind: 'number', required: true },
      ...eventSlots(['event']),
      { path: ['durability'], kind: 'enum', required: false },
    ],
  },
  { method: 'getUserState', make: (s) => ({ appName: s.appName, userId: s.userId }), slots: stateSlots },
  { method: 'getAppState', make: (s) => ({ appName: s.appName }), slots: appSlots },
  { method: 'rewind', make: rewind, slots: rewindSlots },
  { method: 'erase', make: erase, slots: eraseSlots },
];

export const HOST_TEMPLATES: Template<HostMethod>[] = [
  {
    method: 'hello',
    make: () => ({ dbName: 'unused' }),
    slots: [{ path: ['dbName'], kind: 'id', required: false }],
    primitiveWholeOnly: true,
  },
  { method: 'createSession', make: create, slots: createSlots },
  { method: 'getSession', make: get, slots: getSlots },
  { method: 'listSessions', make: list, slots: listSlots },
  { method: 'deleteSession', make: key, slots: keySlots(true) },
  {
    method: 'appendEvents',
    make: (s) => ({
      appName: s.appName,
      userId: s.userId,
      sessionId: s.sessionId,
      ref: s.ref ?? null,
      lastUpdateTime: s.session.lastUpdateTime,
      events: [validEvent()],
      durability: 'relaxed',
    }),
    slots: [
      ...keySlots(true),
      { path: ['ref'], kind: 'nullableObject', required: true },
      { path: ['ref', 'uid'], kind: 'id', required: true },
      { path: ['ref', 'revision'], kind: 'nonNegInt', required: true },
      { path: ['lastUpdateTime'], kind: 'number', required: true },
      { path: ['events'], kind: 'array', required: true },
      ...eventSlots(['events', 0]),
      { path: ['durability'], kind: 'enum', required: false },
    ],
  },
  { method: 'getUserState', make: (s) => ({ appName: s.appName, userId: s.userId }), slots: stateSlots },
  { method: 'getAppState', make: (s) => ({ appName: s.appName }), slots: appSlots },
  { method: 'rewind', make: rewind, slots: rewindSlots },
  { method: 'erase', make: erase, slots: eraseSlots },
];

/** Copies the request along `path` (never mutating the live session object) and sets or deletes the leaf. */
function withSlot(
  request: Record<string, unknown>,
  path: (string | number)[],
  value: unknown,
  remove: boolean,
): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(request) ? [...request] : { ...request };
  const record = copy as Record<string | number, unknown>;
  if (rest.length === 0) {
    if (remove) delete record[head];
    else record[head] = value;
  } else {
    record[head] = withSlot(record[head] as Record<string, unknown>, rest, value, remove);
  }
  return copy;
}

/**
 * Bad calls for `templates`, against the data in `seed`. With `forPostMessage`,
 * values that cloning would make valid are left out (see `VALID_AFTER_CLONE`).
 */
export function badCalls<M extends string>(
  templates: Template<M>[],
  seed: Seed,
  options: { forPostMessage?: boolean } = {},
): fc.Arbitrary<BadCall<M>> {
  const keep = ([name]: [string, () => unknown]): boolean =>
    !options.forPostMessage || ![...VALID_AFTER_CLONE].some((n) => name.includes(n));
  const perTemplate = templates.map((t) => {
    const broken = t.slots.flatMap((slot) =>
      badValuesFor(slot)
        .filter(keep)
        .map(([name, make]) => ({ slot, name, make, remove: false })),
    );
    const missing = t.slots
      .filter((s) => s.required)
      .map((slot) => ({ slot, name: 'missing', make: () => undefined, remove: true }));
    const wholeRequests = NOT_REQUESTS.filter(keep).filter(([, make]) => {
      if (!t.primitiveWholeOnly) return true;
      try {
        const value = make();
        return value === null || typeof value !== 'object' || Array.isArray(value);
      } catch {
        return true;
      }
    });
    const whole = wholeRequests.map(([name, make]) => ({
      slot: { path: [], kind: 'object' as const, required: true },
      name,
      make,
      remove: false,
    }));
    return fc.constantFrom(...broken, ...missing, ...whole).map(({ slot, name, make, remove }): BadCall<M> => {
      const defect = `${t.method}: ${slot.path.join('.') || 'request'}: ${name}`;
      return {
        method: t.method,
        request: withSlot(t.make(seed), slot.path, make(), remove),
        defect,
        // fast-check prints counterexamples; hostile values (revoked proxies) cannot be printed.
        [fc.toStringMethod]: () => defect,
      };
    });
  });
  return fc.oneof(...perTemplate);
}

/** Extra defects no slot expresses: rules between fields, and names of what the session does not hold. */
export function crossFieldBadCalls(seed: Seed): BadCall<Method>[] {
  const at = key(seed);
  return [
    { method: 'erase', request: { ...at, eventIds: [] }, defect: 'erase: names no event' },
    {
      method: 'erase',
      request: { ...at, eventIds: ['seed-0', 'no-such-event'] },
      defect: 'erase: one of its events is not in the session (none may be erased)',
    },
    {
      method: 'erase',
      request: { ...at, invocationId: 'no-such-invocation' },
      defect: 'erase: an invocation the session does not hold',
    },
    {
      method: 'rewind',
      request: { ...at, beforeInvocationId: 'no-such-invocation' },
      defect: 'rewind: an invocation the session does not hold',
    },
    { method: 'listSessions', request: { appName: seed.appName, page: 2 }, defect: 'listSessions: page without limit' },
    {
      method: 'appendEvent',
      request: { session: { ...seed.session, events: 'none' }, event: validEvent() },
      defect: 'appendEvent: session.events not an array',
    },
  ];
}
