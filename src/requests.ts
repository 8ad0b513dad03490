/**
 * What the page does to a request's data before it crosses to the store: takes
 * its JSON form, the plain data the store validates and keeps. Done here, where
 * the caller's objects are: a `toJSON`, a getter or a proxy does not survive the
 * trip to a worker, and a failure is told with the operation's name.
 */
import { InvalidInputError } from './errors.js';
import { type CheckJsonOptions, formatPath, toJsonForm } from './json.js';

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
 * Numbers in [1e9, 1e11) taken as an event time look like seconds since the
 * epoch (adk-python's unit: 1e9 s is 2001, 1e11 s is year 5138) and, read as
 * ADK JS's milliseconds, would date the event Jan 1970 to Mar 1973, which no
 * live app writes. Below the range stay the small synthetic times tests and
 * examples use (1, 2, 5000); from 1e11 on, every millisecond time since 1973.
 */
const SECONDS_FROM = 1e9;
const SECONDS_UNTIL = 1e11;

/**
 * The JSON form of an appended event, as `jsonFormOf`, after two checks on its
 * `timestamp` that the JSON form would hide or that zod's type check cannot
 * make: a `Date` (whose JSON form is a string, which would then be reported as
 * one) and a time in seconds. Only appends are checked for seconds: imports
 * and sync carry events already stored, whatever unit they were written in.
 */
export function eventFormOf(operation: string, event: object, at: PropertyKey[], options?: CheckJsonOptions): unknown {
  const where = formatPath([...at, 'timestamp']);
  const t = (event as { timestamp?: unknown }).timestamp;
  if (Object.prototype.toString.call(t) === '[object Date]') {
    throw new InvalidInputError(
      `${operation}: ${where}: must be a number (epoch milliseconds, as Date.now() gives), not a Date: pass date.getTime()`,
    );
  }
  if (typeof t === 'number' && t >= SECONDS_FROM && t < SECONDS_UNTIL) {
    throw new InvalidInputError(
      `${operation}: ${where}: ${t} looks like seconds since the epoch (adk-python's unit); ADK JS event times are epoch milliseconds: multiply by 1000`,
    );
  }
  return jsonFormOf(operation, event, at, options);
}
