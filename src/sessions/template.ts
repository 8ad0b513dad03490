/**
 * ADK's instruction templating, for apps that build prompts without ADK: the
 * rules of ADK's `injectSessionState` (TypeScript 2.x, the same as Python's
 * `inject_session_state`), synchronous, over a plain state record.
 */
import { familyNames, InvalidInputError } from '../core/errors.js';
import { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from '../core/state.js';

const ARTIFACT_PREFIX = 'artifact.';
/** One or more `{`, anything but braces, one or more `}`: `{{name}}` is the variable `name`, as in ADK. */
const PLACEHOLDER = /\{+[^{}]*\}+/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PREFIXES = [APP_PREFIX, USER_PREFIX, TEMP_PREFIX];

/**
 * A required template variable has no value (`injectSessionState`). Its code is
 * `INVALID_INPUT`, like every other bad input, so existing handlers catch it;
 * `key` names the variable (`user:name`, or `artifact.notes.txt`) so an app can
 * ask for the missing value. Named in the family's list below, so it keeps its
 * name when minified, and its class and `key` across the worker boundary.
 */
export class MissingTemplateKeyError extends InvalidInputError {
  constructor(
    /** The state key the template names and the state lacks. */
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

familyNames.set(MissingTemplateKeyError, 'MissingTemplateKeyError');

/** How `injectSessionState` resolves what the state does not hold. */
export interface InjectOptions {
  /**
   * Resolves `{artifact.<name>}`: return the artifact (a string, or an object
   * such as a `Part`, whose `text` is used when it has one), or `undefined` when
   * there is none. Without it, a template that names an artifact is an error,
   * as in ADK without an artifact service.
   */
  artifact?: (name: string) => unknown;
}

/** `name`, or `app:name` / `user:name` / `temp:name` with `name` an identifier. */
export function isValidStateName(name: string): boolean {
  const colon = name.indexOf(':');
  if (colon < 0) return IDENTIFIER.test(name);
  const prefix = name.slice(0, colon + 1);
  return PREFIXES.includes(prefix) && IDENTIFIER.test(name.slice(colon + 1));
}

/** Strings as they are, objects and arrays as JSON, anything else through `String`. */
function format(value: unknown, isArtifact: boolean): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    if (isArtifact && typeof (value as { text?: unknown }).text === 'string') return (value as { text: string }).text;
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  }
  return String(value);
}

/**
 * Fills `{key}` placeholders in `template` from `state`, as ADK does with an
 * agent's instruction:
 * - `{key}`: the value of `key`; a `MissingTemplateKeyError` when `state` has no such key;
 * - `{key?}`: the same, or an empty string when the key is missing;
 * - `{app:key}`, `{user:key}`, `{temp:key}`: prefixed keys, read as written
 *   (a session's merged state holds them under these names);
 * - `{artifact.name}`: through `options.artifact`;
 * - anything else in braces that is not a valid name (`{not a name}`, `{a.b}`,
 *   `{"json": 1}`) is left as it is. Surrounding spaces are ignored and extra
 *   braces are taken as one: `{{ name }}` is the variable `name`.
 *
 * Values are rendered as ADK renders them: strings as is, objects and arrays
 * as JSON, numbers, booleans and `null` through `String`. Only the state's own
 * keys count: `{constructor}` is not read from `Object.prototype`.
 * The result is plain text for a model, not HTML: never insert it as markup.
 *
 * @example
 * ```ts
 * injectSessionState('Hello {user:name}, you asked about {topic?}.', { 'user:name': 'Ada' });
 * // 'Hello Ada, you asked about .'
 * ```
 */
export function injectSessionState(
  template: string,
  state: Readonly<Record<string, unknown>>,
  options: InjectOptions = {},
): string {
  return template.replace(PLACEHOLDER, (raw) => {
    let key = raw.replace(/^\{+/, '').replace(/\}+$/, '').trim();
    const optional = key.endsWith('?');
    if (optional) key = key.slice(0, -1);
    if (key.startsWith(ARTIFACT_PREFIX)) return artifact(key, raw, optional, options);
    if (!isValidStateName(key)) return raw;
    if (Object.hasOwn(state, key)) return format(state[key], false);
    if (optional) return '';
    throw new MissingTemplateKeyError(
      key,
      `injectSessionState: ${raw} needs the state key "${key}", which is not set (write {${key}?} to make it optional)`,
    );
  });
}

function artifact(key: string, raw: string, optional: boolean, options: InjectOptions): string {
  const name = key.slice(ARTIFACT_PREFIX.length);
  if (!options.artifact) {
    throw new MissingTemplateKeyError(
      key,
      `injectSessionState: ${raw} names an artifact, but no \`artifact\` resolver was given`,
    );
  }
  const value = options.artifact(name);
  if (value !== undefined) return format(value, true);
  if (optional) return '';
  throw new MissingTemplateKeyError(
    key,
    `injectSessionState: ${raw} names the artifact "${name}", which was not found`,
  );
}
