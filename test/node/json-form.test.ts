/**
 * `toJsonForm` is what the store keeps of events and state: for anything JSON can
 * carry it must equal `JSON.parse(JSON.stringify(value))` (class instances,
 * Dates, `__proto__` keys, nesting), leave the input untouched, and hand plain
 * data back as the same object (the append hot path copies nothing).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { toJsonForm } from '../../src/core/json.js';

class Pair {
  constructor(
    readonly left: unknown,
    readonly right: unknown,
  ) {}
}

const leaf = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), tie('value'), { maxKeys: 4 }),
    fc.tuple(tie('value'), tie('value')).map(([l, r]) => new Pair(l, r)),
  ),
}));
const plain = fc.jsonValue();

it('equals the JSON round trip of any value JSON carries faithfully, and leaves the input as it was', () => {
  fc.assert(
    fc.property(value, (input) => {
      const before = JSON.stringify(input);
      const form = toJsonForm(input);
      expect(form.problem).toBeNull();
      expect(form.value).toEqual(JSON.parse(before));
      expect(JSON.stringify(input)).toBe(before);
    }),
    { seed: 20251123, numRuns: 2000 },
  );
});

it('returns plain JSON data as the very same object', () => {
  fc.assert(
    fc.property(plain, (input) => {
      expect(toJsonForm(input).value).toBe(input);
    }),
    { seed: 20251123, numRuns: 1000 },
  );
});
