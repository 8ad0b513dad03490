/**
 * What the page does to a request's data before it crosses to the store: takes
 * its JSON form, the plain data the store validates and keeps. Done here, where
 * the caller's objects are: a `toJSON`, a getter or a proxy does not survive the
 * trip to a worker, and a failure is told with the operation's name.
 */
import { InvalidInputError } from '../core/errors.js';
import { type CheckJsonOptions, formatPath, toJsonForm } from '../core/json.js';

/** `value` as JSON data, or an `InvalidInputError` naming `operation` and the place (`at`, then the path inside). */
export function jsonFormOf(operation: string, value: unknown, at: PropertyKey[], options?: CheckJsonOptions): unknown {
  const where = (path: PropertyKey[]) => (path.length > 0 ? formatPath(path) : 'request');
  let form: ReturnType<typeof toJsonForm>;
  try {
    form = toJsonForm(value, undefined, options);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InvalidInputError(`${operation}: ${where(at)}: cannot be read (${why})`);
  }
  if (form.problem)
    throw new InvalidInputError(`${operation}: ${where([...at, ...form.problem.path])}: ${form.problem.why}`);
  return form.value;
}

/**
 * `request` with its data field (`state`) in JSON form; anything but an object
 * is passed on as it is, for the store to say what is wrong with it. The rest
 * crosses as given: the store validates it (a Date where an id belongs must be
 * refused, not turned into a string).
 */
export function withDataForm<R>(operation: string, request: R, field: 'state'): R {
  if (typeof request !== 'object' || request === null) return request;
  let copy: Record<string, unknown>;
  try {
    copy = { ...(request as Record<string, unknown>) };
  } catch (error) {
    throw new InvalidInputError(`${operation}: request: cannot be read (${String(error)})`);
  }
  if (copy[field] !== undefined) copy[field] = jsonFormOf(operation, copy[field], [field]);
  return copy as R;
}

/**
 * The JSON form of an appended event, as `jsonFormOf`, after a check the JSON
 * form would hide: a `Date` as its `timestamp` becomes a string there, which
 * the store would then report as a string the caller never passed.
 */
export function eventFormOf(operation: string, event: object, at: PropertyKey[], options?: CheckJsonOptions): unknown {
  if (Object.prototype.toString.call((event as { timestamp?: unknown }).timestamp) === '[object Date]') {
    throw new InvalidInputError(
      `${operation}: ${formatPath([...at, 'timestamp'])}: must be a number (epoch ms), not a Date`,
    );
  }
  return jsonFormOf(operation, event, at, options);
}
