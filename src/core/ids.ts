/** Ids: new ones, and the shape the boundary check accepts. */
import { MAX_ID_LENGTH } from './limits.js';

/** A random v4 UUID; `crypto.randomUUID` exists only in secure contexts, so fall back to `getRandomValues`. */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether `s` holds a lone surrogate: a `u` regex sees a paired one as one code point, never as `Cs`. */
export const hasLoneSurrogate = (s: string): boolean => /\p{Cs}/u.test(s);

/**
 * Whether `value` is an `appName`, `userId` or session id the boundary check accepts (`idSchema`
 * in ./schema.ts, which also says why one is refused): for code that must not load the schemas.
 */
export const isWellFormedId = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length > 0 &&
  value.length <= MAX_ID_LENGTH &&
  value.trim() === value &&
  !hasLoneSurrogate(value);
