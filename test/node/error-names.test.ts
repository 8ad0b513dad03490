/**
 * Error names are part of the contract ("each keeps its class, name, code").
 * They must not come from the class's own name, which minifiers rewrite: a
 * class renamed to `c` (as in a production bundle) still names its errors right.
 */
import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  InvalidInputError,
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
    it(`${name} keeps its name under a mangled class name`, () => {
      // What a minifier leaves: the same class under a one-letter name.
      const c = class extends Base {};
      expect(c.name).toBe('c');
      const error = new c('boom');
      expect(error.name).toBe(name);
      expect(String(error)).toBe(`${name}: boom`);
    });
  }
});
