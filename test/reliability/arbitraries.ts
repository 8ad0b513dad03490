/**
 * fast-check arbitraries shared by the reliability suites: plain JSON values
 * whose keys include prototype-pollution names, state deltas over every scope,
 * events that are invalid in one specific way, and ids made to collide.
 */
import fc from 'fast-check';
import { put } from './model.js';

/** Keys a naive implementation would mishandle: prototype names, scope prefixes, separators. */
export const TRICKY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'a',
  'b',
  'a.b',
  'a:b',
  '',
  '\u0000',
] as const;

/** Builds an object with own data properties only, whatever the keys are named. */
export function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) put(out, k, v);
  return out;
}

const leaf = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);

/** Small plain JSON values (depth <= 3) with tricky keys. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...TRICKY_KEYS), fc.string({ maxLength: 4 })), tie('value')), {
        maxLength: 3,
      })
      .map(objectOf),
  ),
})).value;

const SCOPES = ['', 'app:', 'user:', 'temp:'] as const;

/** A state delta touching every scope, keys from a small pool so later deltas overwrite earlier ones. */
export const stateDelta: fc.Arbitrary<Record<string, unknown>> = fc
  .array(
    fc.tuple(
      fc.constantFrom(...SCOPES),
      fc.constantFrom('k1', 'k2', '__proto__', 'constructor', 'toString', 'x:y'),
      jsonValue,
    ),
    { maxLength: 4 },
  )
  .map((entries) => objectOf(entries.map(([scope, k, v]) => [scope + k, v])));

/** Ways an event can be invalid; each must be rejected with InvalidInputError and change nothing. */
export const INVALID_EVENT_KINDS = [
  'missing-id',
  'empty-id',
  'padded-id',
  'long-id',
  'negative-timestamp',
  'string-timestamp',
  'nan-timestamp',
  'function-in-delta',
  'undefined-in-delta',
  'map-in-delta',
  'cycle-in-delta',
  'too-deep',
  'array-delta',
  'bigint-value',
  'sparse-array',
  'infinite-number',
] as const;
export type InvalidEventKind = (typeof INVALID_EVENT_KINDS)[number];

/** Turns a valid event into one that is invalid in the given way. */
export function spoil(event: Record<string, unknown>, kind: InvalidEventKind): Record<string, unknown> {
  const e: Record<string, unknown> = { ...event };
  const delta = (value: unknown): void => {
    e.actions = { stateDelta: objectOf([['bad', value]]) };
  };
  switch (kind) {
    case 'missing-id':
      delete e.id;
      break;
    case 'empty-id':
      e.id = '';
      break;
    case 'padded-id':
      e.id = ` ${String(e.id)} `;
      break;
    case 'long-id':
      e.id = 'x'.repeat(1025);
      break;
    case 'negative-timestamp':
      e.timestamp = -1;
      break;
    case 'string-timestamp':
      e.timestamp = String(e.timestamp);
      break;
    case 'nan-timestamp':
      e.timestamp = Number.NaN;
      break;
    case 'function-in-delta':
      delta(() => 1);
      break;
    case 'undefined-in-delta':
      delta(undefined);
      break;
    case 'map-in-delta':
      delta(new Map([['a', 1]]));
      break;
    case 'cycle-in-delta': {
      const cycle: Record<string, unknown> = { a: 1 };
      cycle.self = cycle;
      delta(cycle);
      break;
    }
    case 'too-deep': {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 80; i++) deep = { d: deep };
      delta(deep);
      break;
    }
    case 'array-delta':
      e.actions = { stateDelta: [1, 2] };
      break;
    case 'bigint-value':
      delta(10n);
      break;
    case 'sparse-array':
      // biome-ignore lint/suspicious/noSparseArray: a hole is what is being tested
      delta([1, , 3]);
      break;
    case 'infinite-number':
      delta(Number.POSITIVE_INFINITY);
      break;
  }
  return e;
}

/** Fragments that make ids prefixes, suffixes and near-copies of each other. */
const ID_FRAGMENTS = [
  'a',
  'b',
  'ab',
  '\u0000',
  '/',
  ':',
  'app:',
  'user:',
  '__proto__',
  'constructor',
  '\uD800',
  '\uDC00',
  '\u202E',
  '\u05D0',
  '😀',
  '\uFEFF',
  '.',
  '%00',
  '"',
] as const;

/**
 * Valid ids (non-empty, no surrounding whitespace, well-formed UTF-16: the surrogate fragments
 * only as a pair) built to collide with each other under naive encodings.
 */
export const collidingId: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...ID_FRAGMENTS), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''))
  .filter((s) => s.trim() === s && !/\p{Cs}/u.test(s));

/**
 * App, user and session ids for one isolation run: either drawn at random from
 * the fragments, or built so that some tuples become equal once joined with a
 * separator (`[x, y+s+z]` vs `[x+s+y, z]`), so any encoding that joins ids
 * instead of keeping them apart mixes up two tenants.
 */
export const isolationUniverse: fc.Arbitrary<{ apps: string[]; users: string[]; sessionIds: string[] }> = fc.oneof(
  fc.record({
    apps: fc.uniqueArray(collidingId, { minLength: 2, maxLength: 4 }),
    users: fc.uniqueArray(collidingId, { minLength: 2, maxLength: 4 }),
    sessionIds: fc.uniqueArray(collidingId, { minLength: 2, maxLength: 4 }),
  }),
  fc
    .record({
      x: collidingId,
      y: collidingId,
      z: collidingId,
      sep: fc.oneof(
        { arbitrary: fc.constant('\u0000'), weight: 3 },
        { arbitrary: fc.constantFrom('/', ':', '|', ''), weight: 1 },
      ),
      sid: collidingId,
    })
    .map(({ x, y, z, sep, sid }) => ({
      apps: [...new Set([x, `${x}${sep}${y}`])],
      users: [...new Set([`${y}${sep}${z}`, z])],
      sessionIds: [sid],
    }))
    .filter((u) => u.apps.length === 2 && u.users.length === 2 && u.users.every((s) => s.trim() === s)),
);
