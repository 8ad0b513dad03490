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

/**
 * Returns the first reason `value` is not plain JSON data, or `null` when it is.
 * Also measures the value: `size` approximates its JSON length in characters,
 * so callers can bound records without serialising them. Symbol-keyed
 * properties are not data (JSON and structured clone both drop them, and ADK
 * marks its events with one): they are ignored, never stored.
 */
export function checkJson(
  value: unknown,
  measure?: { size: number },
  options: CheckJsonOptions = {},
): JsonProblem | null {
  const ancestors = new Set<object>();
  const path: (string | number)[] = [];
  let size = 0;
  const fail = (why: string): JsonProblem => ({ path: [...path], why });

  const walk = (v: unknown, depth: number): JsonProblem | null => {
    switch (typeof v) {
      case 'string':
        size += v.length + 2;
        return null;
      case 'boolean':
        size += 5;
        return null;
      case 'number':
        size += 8;
        return Number.isFinite(v) ? null : fail(`must be a finite number, got ${describe(v)}`);
      case 'object':
        break;
      default:
        return fail(`must be JSON data, got ${describe(v)}`);
    }
    if (v === null) {
      size += 4;
      return null;
    }
    if (depth >= MAX_JSON_DEPTH) return fail(`is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (ancestors.has(v)) return fail('contains a cycle');
    const isArray = Array.isArray(v);
    if (!isArray && !isPlainObject(v)) return fail(`must be a plain object or array, got ${describe(v)}`);
    ancestors.add(v);
    size += 2;
    if (isArray) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const problem = i in v ? walk(v[i], depth + 1) : fail('must not be a hole in an array');
        if (problem) return problem;
        path.pop();
        size += 1;
      }
    } else {
      const record = v as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (record[key] === undefined && options.undefinedFieldsAreAbsent) continue;
        path.push(key);
        size += key.length + 3;
        const problem = walk(record[key], depth + 1);
        if (problem) return problem;
        path.pop();
      }
    }
    ancestors.delete(v);
    return null;
  };

  const problem = walk(value, 0);
  if (measure) measure.size = size;
  return problem;
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
