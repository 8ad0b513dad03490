/**
 * `inlineData.data` comes back as it was written: the store keeps bytes and,
 * beside them, only how the string was written (`base64Form`). Any string the
 * store accepts as base64 rebuilds exactly; the four regular forms of any bytes
 * never need the string itself kept.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { base64Form } from '../../src/artifacts/base64-form.js';
import { base64ToBytes, bytesToBase64, bytesToBase64As } from '../../src/core/base64.js';

const accepted = (s: string) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(s) && s.replace(/=+$/, '').length % 4 !== 1;

it('rebuilds every string accepted as base64 exactly from its bytes and form', () => {
  const text = fc
    .tuple(fc.string({ unit: fc.constantFrom(...'AQgw+/-_9z'), maxLength: 12 }), fc.constantFrom('', '=', '=='))
    .map(([body, pad]) => body + pad)
    .filter(accepted);
  fc.assert(
    fc.property(text, (s) => {
      expect(bytesToBase64As(base64ToBytes(s), base64Form(s))).toBe(s);
    }),
    { numRuns: 2000 },
  );
});

it('keeps no string for standard or URL-safe base64, padded or not', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), fc.boolean(), fc.boolean(), (bytes, url, unpadded) => {
      let s = bytesToBase64(bytes);
      if (url) s = s.replace(/\+/g, '-').replace(/\//g, '_');
      if (unpadded) s = s.replace(/=+$/, '');
      const form = base64Form(s);
      expect(typeof form).not.toBe('object');
      expect(bytesToBase64As(bytes, form)).toBe(s);
    }),
    { numRuns: 1000 },
  );
  expect(base64Form('-_8')).toBe('url-unpadded');
  expect(base64Form('AQ')).toBe('unpadded');
  expect(base64Form('AQ==')).toBeUndefined();
  expect(base64Form('AR')).toEqual({ verbatim: 'AR' });
  expect(base64Form('+_8=')).toEqual({ verbatim: '+_8=' });
});
