/**
 * Errors cross the worker boundary as plain data (`toWireError`, structured
 * clone, `fromWireError`). Every class of the family arrives as itself: its
 * class, name, code, message and its own fields (`SyncError.kind` and
 * `status`, `MissingTemplateKeyError.key`), so code on the page can branch on
 * them as it would in the worker.
 */
import { describe, expect, it } from 'vitest';
import { fromWireError, toWireError } from '../../src/core/errors.js';
import * as api from '../../src/index.js';
import {
  AlreadyExistsError,
  DraftInUseError,
  DraftNotFoundError,
  EventNotFoundError,
  InvalidInputError,
  InvocationNotFoundError,
  MissingTemplateKeyError,
  QuotaExceededError,
  SessionNotFoundError,
  SessionStoreError,
  StaleSessionError,
  StorageError,
  StoreClosedError,
  SyncError,
  TimeoutError,
  UpgradeBlockedError,
} from '../../src/index.js';

/** One error of each class, with fields that differ from the class's defaults. */
const samples: SessionStoreError[] = [
  new AlreadyExistsError('exists'),
  new SessionNotFoundError('missing'),
  new InvocationNotFoundError('Invocation ID not found: inv1'),
  new EventNotFoundError('erase: no event "e9" in session s1'),
  new DraftNotFoundError('writeDraft: draft d1 is not stored'),
  new DraftInUseError('resume: draft d1 is still being written by a live tab'),
  new StaleSessionError('stale'),
  new InvalidInputError('bad'),
  new QuotaExceededError('full'),
  new StoreClosedError('closed'),
  new UpgradeBlockedError('blocked'),
  new TimeoutError('slow'),
  new StorageError('broken'),
  new SyncError('the sync server answered 403', 'auth', 403),
  new MissingTemplateKeyError('user:name', 'no user:name'),
];

const acrossTheBoundary = (error: unknown): Error => fromWireError(structuredClone(toWireError(error)));

describe('errors across the worker boundary', () => {
  it('samples every error class the package exports', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SessionStoreError,
    );
    expect(new Set(samples.map((e) => e.constructor))).toEqual(new Set(exported));
  });

  for (const original of samples) {
    it(`${original.name} keeps its class, name, code, message and own fields`, () => {
      const received = acrossTheBoundary(original);
      expect(received).toBeInstanceOf(original.constructor);
      expect(received).toBeInstanceOf(Error);
      expect(received.name).toBe(original.name);
      expect(received.message).toBe(original.message);
      expect((received as SessionStoreError).code).toBe(original.code);
      expect({ ...received }).toEqual({ ...original });
    });
  }

  it('SyncError keeps kind and status', () => {
    const received = acrossTheBoundary(new SyncError('down', 'server', 503)) as SyncError;
    expect(received).toBeInstanceOf(SyncError);
    expect([received.kind, received.status]).toEqual(['server', 503]);
  });

  it('MissingTemplateKeyError keeps its key and stays an InvalidInputError', () => {
    const received = acrossTheBoundary(new MissingTemplateKeyError('artifact.notes.txt', 'no notes'));
    expect(received).toBeInstanceOf(MissingTemplateKeyError);
    expect(received).toBeInstanceOf(InvalidInputError);
    expect((received as MissingTemplateKeyError).key).toBe('artifact.notes.txt');
  });

  it('a code of the family whose class this realm never loaded arrives as a SessionStoreError with that code', () => {
    const received = fromWireError({ code: 'INVOCATION_NOT_FOUND', name: 'NotLoadedHereError', message: 'gone' });
    expect(received).toBeInstanceOf(SessionStoreError);
    expect(received).not.toBeInstanceOf(InvocationNotFoundError);
    expect({ ...received }).toEqual({ code: 'INVOCATION_NOT_FOUND', name: 'NotLoadedHereError' });
    expect(received.message).toBe('gone');
  });

  it('an error outside the family keeps its name and message, and gains no class', () => {
    const received = acrossTheBoundary(new RangeError('out of range'));
    expect(received).not.toBeInstanceOf(SessionStoreError);
    expect([received.name, received.message]).toEqual(['RangeError', 'out of range']);
  });

  it('a wire field named __proto__ stays a field and does not change the class', () => {
    const wire = { ...toWireError(new StorageError('x')), fields: JSON.parse('{"__proto__": "oops"}') };
    const received = fromWireError(wire);
    expect(received).toBeInstanceOf(StorageError);
  });
});
