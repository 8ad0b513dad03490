/**
 * ADK's `Part` kept as given: the payload (`text`, `inlineData.data`,
 * `fileData.fileUri`) is stored as the store's body (text, bytes, a
 * reference), and every other field of the Part, known or not (`thought`,
 * `thoughtSignature`, `videoMetadata`, an empty `displayName`, fields of a
 * later ADK), is kept beside it as JSON and put back around the payload on
 * load. ADK's in-memory service returns the Part it was given; a store that
 * dropped `thought: true` would turn a model's thinking into its answer.
 */
import { InvalidInputError } from '../core/errors.js';
import { checkJson, formatPath, isPlainObject } from '../core/json.js';
import { MAX_RECORD_SIZE } from '../core/limits.js';
import { type BodyKind, PAYLOAD, PAYLOAD_KEYS, type PartFields } from '../core/part-shape.js';

/** How a Part's fields are read: an `undefined` field is an absent one, as in an event. */
export const PART_JSON = { undefinedFieldsAreAbsent: true };

/**
 * A copy of `part` (validated JSON data) without its payload. The payload is
 * left out before copying (it may be megabytes of base64). `structuredClone`
 * rather than JSON: `-0` and `undefined` fields stay as given; spreads and the
 * clone define own properties, so `__proto__` stays a plain key.
 */
export function fieldsOf(part: Record<string, unknown>, kind: BodyKind): PartFields {
  const fields = { ...part };
  const [key, inner] = PAYLOAD[kind];
  if (inner === undefined) delete fields[key];
  else {
    const own = { ...(part[key] as Record<string, unknown>) };
    delete own[inner];
    fields[key] = own;
  }
  return structuredClone(fields);
}

/**
 * Why `fields` cannot be kept beside a `kind` payload (an archive's entry is
 * checked with it), or `null`: plain JSON of at most `MAX_RECORD_SIZE`
 * characters, like an event, no other kind's payload field, and its own as a
 * plain object without the payload in it.
 */
export function fieldsProblem(fields: unknown, kind: BodyKind): { why: string; path: PropertyKey[] } | null {
  if (!isPlainObject(fields)) return { why: 'must be a plain object', path: [] };
  const measure = { size: 0 };
  const problem = checkJson(fields, measure, PART_JSON);
  if (problem) return problem;
  if (measure.size > MAX_RECORD_SIZE) return { why: `is larger than the ${MAX_RECORD_SIZE}-character limit`, path: [] };
  const [key, inner] = PAYLOAD[kind];
  for (const other of PAYLOAD_KEYS) {
    if (other !== key && fields[other] !== undefined)
      return { why: `must not hold a ${kind} artifact's other payload`, path: [other] };
  }
  if (inner === undefined) return fields[key] === undefined ? null : { why: 'must not hold the payload', path: [key] };
  const own = fields[key];
  if (own === undefined) return null;
  if (!isPlainObject(own)) return { why: 'must be a plain object', path: [key] };
  return own[inner] === undefined ? null : { why: 'must not hold the payload', path: [key, inner] };
}

/**
 * The fields to keep of `part`, a Part the schema accepted (its payload is of
 * `kind`): `InvalidInputError` when one is not JSON, is too large, or cannot
 * be read (a throwing getter is bad input, not a crash).
 */
export function keptFields(operation: string, part: unknown, kind: BodyKind): PartFields {
  const refuse = (problem: { why: string; path: PropertyKey[] }) =>
    new InvalidInputError(`${operation}: ${formatPath(['artifact', ...problem.path])}: ${problem.why}`);
  let fields: PartFields;
  try {
    const problem = checkJson(part, undefined, PART_JSON);
    if (problem) throw refuse(problem);
    fields = fieldsOf(part as Record<string, unknown>, kind);
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw refuse({ why: `cannot be read (${error instanceof Error ? error.message : String(error)})`, path: [] });
  }
  const problem = fieldsProblem(fields, kind);
  if (problem) throw refuse(problem);
  return fields;
}
