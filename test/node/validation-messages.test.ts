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

  it('a Date as an event timestamp is named as a Date, not as the string its JSON form is', async () => {
    const session = await store.createSession({ appName: 'a', userId: 'u' });
    const event = { id: 'e', author: 'user', timestamp: new Date() as unknown as number };
    expect(await refusal(() => store.appendEvent({ session, event }))).toBe(
      'appendEvent: event.timestamp: must be a number (epoch ms), not a Date',
    );
  });

  it('an event timestamp in seconds (as adk-python writes) is refused, not stored as a date in 1970', async () => {
    const session = await store.createSession({ appName: 'a', userId: 'u' });
    for (const timestamp of [1_700_000_000, 1_700_000_000.25]) {
      expect(await refusal(() => store.appendEvent({ session, event: { id: 'e', timestamp } }))).toBe(
        `appendEvent: event.timestamp: ${timestamp} looks like seconds; event times are epoch ms`,
      );
    }
    expect(session.events).toEqual([]);
  });

  it('millisecond times and small synthetic times (tests, examples) are taken as they are', async () => {
    const session = await store.createSession({ appName: 'a', userId: 'u' });
    for (const [i, timestamp] of [0, 1, 5000, 999_999_999, 1e11, Date.now()].entries()) {
      await store.appendEvent({ session, event: { id: `ok${i}`, timestamp } });
    }
    expect(session.events.map((e) => e.timestamp)).toHaveLength(6);
  });

  it('a Date where a number belongs elsewhere is named as a Date', async () => {
    const config = { afterTimestamp: new Date() as unknown as number };
    expect(await refusal(() => store.getSession({ appName: 'a', userId: 'u', sessionId: 's', config }))).toBe(
      'getSession: config.afterTimestamp: must be number, not a Date',
    );
  });
});
