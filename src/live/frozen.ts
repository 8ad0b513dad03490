/**
 * Live values are read-only: every value a live query delivers is deeply
 * frozen before anyone sees it, so a component, a store write or a stray
 * `push` cannot change what other readers of the same value hold.
 *
 * The walk stops at objects already frozen: a session re-read narrowly reuses
 * the held (frozen) events and state, so after the first read only what is new
 * is walked. Measured on a 10,000-event session (README "Live queries"), the
 * first freeze costs a few per cent of the read it follows, so values are
 * frozen in every build, not only in development: a value that is frozen in
 * development and writable in production would let an app pass its tests and
 * then mutate shared values in production.
 */

/** Freezes `value` and everything reachable from it, and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // Values here are JSON-form data (plain objects and arrays): own enumerable keys are all there is.
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
