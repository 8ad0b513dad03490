/**
 * The store's errors begin with ADK's own sentence, so code written against
 * ADK's messages (adk-js's own "should handle errors" test among it) works
 * unchanged; the class and code stay the store's. Each message is compared
 * with the one ADK's `DatabaseSessionService` throws for the same mistake, on
 * both forms of the store (in-thread, and through the client and its worker
 * boundary).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseSessionService, Session } from '@google/adk';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  createAppender,
  IndexedDbSessionService,
  SessionNotFoundError,
} from '../../../src/index.js';
import type { ServiceUnderTest } from '../../adk/services.js';
import { adkDatabase, clientStore, inThreadStore } from './services.js';

const dir = mkdtempSync(join(tmpdir(), 'adk-messages-'));
const adk = adkDatabase(join(dir, 'adk.db'));
const stores: ServiceUnderTest[] = [inThreadStore('messages-in-thread'), clientStore('messages-client')];
afterAll(async () => {
  for (const s of [adk, ...stores]) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const failure = (call: () => Promise<unknown>): Promise<Error> =>
  call().then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );

const duplicate = (service: BaseSessionService) =>
  failure(async () => {
    await service.createSession({ appName: 'app1', userId: 'u1', sessionId: 's1' });
    await service.createSession({ appName: 'app1', userId: 'u1', sessionId: 's1' });
  });

const missing = (service: BaseSessionService) =>
  failure(async () => {
    const session = { appName: 'app1', userId: 'u1', id: 'missing', state: {}, events: [], lastUpdateTime: 0 };
    await service.appendEvent({
      session: session as unknown as Session,
      event: { id: 'e1', invocationId: 'i', author: 'user', timestamp: Date.now(), actions: {} } as never,
    });
  });

describe("errors are worded as ADK's", () => {
  for (const store of stores) {
    it(`a duplicate session id: "Session with id s1 already exists." (${store.label})`, async () => {
      const ours = await duplicate(store.service);
      const theirs = await duplicate(adk.service);
      expect(theirs.message).toBe('Session with id s1 already exists.');
      expect(ours).toBeInstanceOf(AlreadyExistsError);
      expect(ours.message.startsWith(theirs.message)).toBe(true);
    });

    it(`an unknown session: "Session missing not found for appendEvent" (${store.label})`, async () => {
      const ours = await missing(store.service);
      const theirs = await missing(adk.service);
      expect(theirs.message).toBe('Session missing not found for appendEvent');
      expect(ours).toBeInstanceOf(SessionNotFoundError);
      expect(ours.message.startsWith(theirs.message)).toBe(true);
    });
  }

  it('an appender whose session is gone words it as ADK does', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'messages-appender' });
    const append = createAppender(store, { appName: 'app1', userId: 'u1', sessionId: 'missing' });
    const error = await failure(() => append({ id: 'e1', author: 'user', timestamp: Date.now() }));
    expect(error).toBeInstanceOf(SessionNotFoundError);
    expect(error.message).toMatch(/^Session missing not found for appendEvent/);
    await store.close();
  });
});
