/**
 * Bad input is refused with a message that names the operation, the field and
 * the reason in words, for zod's own type and enum checks as for ours.
 */
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbSessionService, InvalidInputError } from '../../src/index.js';

const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'messages' });

async function refusal(call: () => Promise<unknown>): Promise<string> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidInputError);
  return (error as Error).message;
}

describe('validation messages', () => {
  it('a value of the wrong type names the expected and the given type', async () => {
    const bad = { appName: 3, userId: 'u' } as unknown as { appName: string; userId: string };
    expect(await refusal(() => store.createSession(bad))).toBe('createSession: appName: must be string, not number');
  });

  it('a missing field says it is required', async () => {
    const bad = { appName: 'a' } as unknown as { appName: string; userId: string };
    expect(await refusal(() => store.createSession(bad))).toBe('createSession: userId: is required (string)');
  });

  it('a value outside an enumeration lists the accepted ones', async () => {
    const bad = { appName: 'a', order: 'up' } as unknown as { appName: string };
    expect(await refusal(() => store.listSessions(bad))).toBe('listSessions: order: must be one of "asc", "desc"');
  });

  it('our own checks keep their words', async () => {
    expect(await refusal(() => store.listSessions({ appName: 'a', limit: 1.5 }))).toBe(
      'listSessions: limit: must be an integer',
    );
    expect(await refusal(() => store.createSession({ appName: ' a', userId: 'u' }))).toBe(
      'createSession: appName: must not have surrounding whitespace',
    );
  });
});
