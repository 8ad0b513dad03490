/**
 * How a saved `inlineData.data` string was written (see `Base64Form`), read
 * by the store when it saves one. Apart from `base64.ts`, which the page
 * bundles too: only the store needs to tell the forms apart.
 */
import type { Base64Form } from '../core/base64.js';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const digit = (c: string): number => {
  const i = DIGITS.indexOf(c);
  return i >= 0 ? i : c === '+' || c === '-' ? 62 : 63;
};

/** `text`'s form (`undefined` for standard padded); `text` is valid base64 (see the schema). */
export function base64Form(text: string): Base64Form | undefined {
  const body = text.replace(/=+$/, '');
  const url = /[-_]/.test(body);
  const padded = body.length !== text.length;
  const tail = body.length % 4;
  const last = body.length > 0 ? digit(body[body.length - 1] as string) : 0;
  const regular =
    !(url && /[+/]/.test(body)) &&
    (!padded || text.length % 4 === 0) &&
    (tail === 2 ? (last & 0xf) === 0 : tail === 3 ? (last & 0x3) === 0 : true);
  if (!regular) return { verbatim: text };
  // Bytes that need no padding (a multiple of 3) read the same either way: the default, padded, is kept.
  const unpadded = !padded && tail !== 0;
  return url ? (unpadded ? 'url-unpadded' : 'url') : unpadded ? 'unpadded' : undefined;
}
