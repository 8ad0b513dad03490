/**
 * Plain JSON data: what state values and events are made of. Checked by walking
 * the value rather than by zod's object parsers, because those copy objects and
 * silently drop a `__proto__` key; here such a key is an ordinary key.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Deeper values are rejected: deep enough for any real tool schema, shallow enough to never overflow a stack. */
export const MAX_JSON_DEPTH = 64;

export interface JsonProblem {
  path: (string | number)[];
  why: string;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a bigint';
  const proto = Object.getPrototypeOf(value);
  const name = proto?.constructor?.name;
  return name ? `an instance of ${name}` : 'a non-plain object';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export interface CheckJsonOptions {
  /**
   * Accept an object property whose value is `undefined` as an absent field, as
   * `JSON.stringify` does. Events need this: ADK's `createEvent` leaves unset
   * optional fields (`author`, `branch`, `customMetadata`) as `undefined`, and a
   * tool that returns nothing becomes `{ result: undefined }` in its response.
   * `undefined` in an array is still rejected.
   */
  undefinedFieldsAreAbsent?: boolean;
}

export type JsonForm = { value: unknown; problem: null } | { value: undefined; problem: JsonProblem };

/**
 * Objects JSON writes as `{...own enumerable fields}`: plain objects and class
 * instances. Built-ins with internal data (Map, Set, typed arrays, RegExp, Error,
 * Blob, Promise...) also look like objects to JSON, which silently writes `{}`
 * for them: those are not data here.
 */
function isFieldObject(value: object): boolean {
  return Object.prototype.toString.call(value) === '[object Object]';
}

/**
 * The JSON form of `value`, which is what the store keeps (ADK's persistent
 * `DatabaseSessionService` stores `JSON.stringify(event)`): `toJSON` is called
 * (a `Date` becomes its ISO string), a class instance becomes a plain object of
 * its own enumerable fields, symbol-keyed properties are dropped. What JSON
 * cannot carry faithfully is a problem instead, with the path where it is: a
 * function, symbol or bigint value, a non-finite number, `undefined` (except as
 * an absent field, with `undefinedFieldsAreAbsent`), a hole in an array, a
 * cycle, nesting deeper than `MAX_JSON_DEPTH`, a Map, Set, typed array or other
 * built-in whose contents JSON would lose.
 *
 * Copy on write: a value that is plain JSON data already comes back as the same
 * object, so the common case allocates nothing. A converted object is rebuilt
 * with own properties, so `__proto__` stays a plain key. `measure.size`
 * approximates the JSON length in characters, so callers can bound records
 * without serialising them. May throw whatever a getter or `toJSON` throws.
 */
export function toJsonForm(value: unknown, measure?: { size: number }, options: CheckJsonOptions = {}): JsonForm {
  const ancestors = new Set<object>();
  const path: (string | number)[] = [];
  let size = 0;
  let problem: JsonProblem | null = null;
  const fail = (why: string): typeof FAILED => {
    problem = { path: [...path], why };
    return FAILED;
  };

  const walk = (input: unknown, depth: number, key: string): unknown => {
    let v = input;
    if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      v = (v as { toJSON(key: string): unknown }).toJSON(key);
    }
    switch (typeof v) {
      case 'string':
        size += v.length + 2;
        return v;
      case 'boolean':
        size += 5;
        return v;
      case 'number':
        size += 8;
        return Number.isFinite(v) ? v : fail(`must be a finite number, got ${describe(v)}`);
      case 'object':
        break;
      default:
        return fail(`must be JSON data, got ${describe(v)}`);
    }
    if (v === null) {
      size += 4;
      return v;
    }
    if (depth >= MAX_JSON_DEPTH) return fail(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (ancestors.has(v)) return fail('contains a cycle');
    const isArray = Array.isArray(v);
    if (!isArray && !isFieldObject(v)) {
      return fail(`must be a plain object or array, got ${describe(v)} (JSON would not keep its contents)`);
    }
    ancestors.add(v);
    size += 2;
    // A value from toJSON or a class instance is always rebuilt; plain data only once something in it changes.
    const fresh = v !== input || (!isArray && !isPlainObject(v));
    if (isArray) {
      const list = v as unknown[];
      let copy: unknown[] | undefined = fresh ? [] : undefined;
      for (let i = 0; i < list.length; i++) {
        path.push(i);
        if (!(i in list)) return fail('must not be a hole in an array');
        const item = walk(list[i], depth + 1, String(i));
        if (item === FAILED) return FAILED;
        if (copy === undefined && item !== list[i]) copy = list.slice(0, i);
        copy?.push(item);
        path.pop();
        size += 1;
      }
      ancestors.delete(v);
      return copy ?? v;
    }
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined = fresh ? {} : undefined;
    for (let k = 0; k < keys.length; k++) {
      const field = keys[k] as string;
      const original = record[field];
      if (original === undefined && options.undefinedFieldsAreAbsent) continue;
      path.push(field);
      size += field.length + 3;
      const item = walk(original, depth + 1, field);
      if (item === FAILED) return FAILED;
      if (copy === undefined && item !== original) copy = copyFields(record, keys.slice(0, k));
      if (copy) setOwn(copy, field, item);
      path.pop();
    }
    ancestors.delete(v);
    return copy ?? v;
  };

  const converted = walk(value, 0, '');
  if (measure) measure.size = size;
  return problem ? { value: undefined, problem } : { value: converted, problem: null };
}

const FAILED = Symbol('not JSON');

/** A fresh plain object with the given fields of `record`, `undefined` ones left out as JSON does. */
function copyFields(record: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of keys) if (record[key] !== undefined) setOwn(copy, key, record[key]);
  return copy;
}

/** Returns the first reason `value` has no faithful JSON form (see `toJsonForm`), or `null`. */
export function checkJson(
  value: unknown,
  measure?: { size: number },
  options: CheckJsonOptions = {},
): JsonProblem | null {
  return toJsonForm(value, measure, options).problem;
}

/** Sets an own, enumerable property, so that `__proto__` and friends stay plain keys. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** The options events are checked and converted with. */
export const EVENT_JSON: CheckJsonOptions = { undefinedFieldsAreAbsent: true };

/**
 * `request` with its data field (`event`, `state`) in the JSON form the store
 * keeps (see `toJsonForm`), so that what `validate` checks is exactly what gets
 * stored: a Date where an object belongs becomes a string, and is refused as one.
 * A field with no JSON form, or that cannot be read, is left as it is for
 * `validate` to report.
 */
export function withJsonField<R>(request: R, field: 'event' | 'state' | 'artifact', options?: CheckJsonOptions): R {
  try {
    if (typeof request !== 'object' || request === null) return request;
    const value = (request as Record<string, unknown>)[field];
    if (value === undefined) return request;
    const form = toJsonForm(value, undefined, options);
    return form.problem || form.value === value ? request : { ...request, [field]: form.value };
  } catch {
    return request;
  }
}

/** A value's path as a message names it: `events[3].actions.stateDelta`. */
export function formatPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}
