/**
 * Error names are part of the contract ("each keeps its class, name, code").
 * They must not come from the class's own name, which minifiers rewrite: a
 * class renamed to `c` (as in a production bundle) still names its errors
 * right. A subclass defined outside the family keeps its own class name.
 */
import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  EventNotFoundError,
  InvalidInputError,
  InvocationNotFoundError,
  QuotaExceededError,
  SessionNotFoundError,
  StaleSessionError,
  StorageError,
  StoreClosedError,
  TimeoutError,
  UpgradeBlockedError,
} from '../../src/index.js';

const families: [string, new (message: string) => Error][] = [
  ['AlreadyExistsError', AlreadyExistsError],
  ['SessionNotFoundError', SessionNotFoundError],
  ['InvocationNotFoundError', InvocationNotFoundError],
  ['EventNotFoundError', EventNotFoundError],
  ['StaleSessionError', StaleSessionError],
  ['InvalidInputError', InvalidInputError],
  ['QuotaExceededError', QuotaExceededError],
  ['StoreClosedError', StoreClosedError],
  ['UpgradeBlockedError', UpgradeBlockedError],
  ['TimeoutError', TimeoutError],
  ['StorageError', StorageError],
];

describe('error names survive minification', () => {
  for (const [name, Base] of families) {
    it(`${name} keeps its name when the class is renamed, as a minifier does`, () => {
      const original = Object.getOwnPropertyDescriptor(Base, 'name') as PropertyDescriptor;
      Object.defineProperty(Base, 'name', { value: 'c' });
      try {
        expect(Base.name).toBe('c');
        const error = new Base('boom');
        expect(error.name).toBe(name);
        expect(String(error)).toBe(`${name}: boom`);
      } finally {
        Object.defineProperty(Base, 'name', original);
      }
    });
  }

  it('a subclass from outside the family is named for its own class', () => {
    class MissingThingError extends InvalidInputError {}
    const error = new MissingThingError('no thing');
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.name).toBe('MissingThingError');
    expect(error.code).toBe('INVALID_INPUT');
  });
});
