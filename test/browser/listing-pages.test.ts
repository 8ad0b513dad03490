/**
 * The first page of a descending listing is read backwards in one request where
 * the engine has `getAllRecords` (Chromium does). Ties in `lastUpdateTime` must
 * still come by id ascending, also when a page ends inside a group of ties.
 * Checked against a plain sort of what was written, for every page size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server } from 'vitest/browser';
import { IndexedDbSessionService, type Session } from '../../src/index.js';
import { deleteDatabase, uniqueDbName } from './helpers.js';

const APP = 'app';
const USERS = ['u1', 'u2', 'u3'];
/** Few distinct times, so most sessions tie with others. */
const TIMES = [100, 200, 200, 200, 300, 300, 400, 500, 500, 500, 500, 600];

interface Seed {
  userId: string;
  id: string;
  time: number;
}

const seeds: Seed[] = Array.from({ length: 36 }, (_, i) => ({
  userId: USERS[i % USERS.length] as string,
  // Ids out of creation order, so id order differs from insertion order.
  id: `s${(i * 7) % 36}`,
  time: TIMES[(i * 5) % TIMES.length] as number,
}));

const reference = (filter: (s: Seed) => boolean): string[] =>
  seeds
    .filter(filter)
    .sort((a, b) => b.time - a.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || (a.userId < b.userId ? -1 : 1))
    .map((s) => `${s.userId}/${s.id}`);

describe('first page of a descending listing', () => {
  const dbName = uniqueDbName('listing-pages');
  let store: IndexedDbSessionService;

  beforeAll(async () => {
    store = new IndexedDbSessionService({ dbName });
    for (const seed of seeds) {
      const session = await store.createSession({ appName: APP, userId: seed.userId, sessionId: seed.id });
      await store.appendEvent({ session, event: { id: 'e', invocationId: 'i', timestamp: seed.time } });
    }
  });

  afterAll(async () => {
    await store.close();
    await deleteDatabase(dbName);
  });

  // WebKitGTK 2.50 has no getAllRecords (IndexedDB 3.1): there the other test checks the cursor walk it takes instead.
  it.skipIf(server.browser === 'webkit')(
    'runs where getAllRecords exists (else this file checks only the cursor walk)',
    () => {
      expect(typeof (IDBIndex.prototype as { getAllRecords?: unknown }).getAllRecords).toBe('function');
    },
  );

  it('orders ties by id for every page size, for one user and for the whole app', async () => {
    const names = (sessions: Session[]) => sessions.map((s) => `${s.userId}/${s.id}`);
    for (const userId of [...USERS, undefined]) {
      const expected = reference((s) => userId === undefined || s.userId === userId);
      for (let limit = 1; limit <= expected.length + 1; limit++) {
        const page = await store.listSessions({ appName: APP, ...(userId ? { userId } : {}), order: 'desc', limit });
        expect(names(page.sessions), `${userId ?? 'all users'}, limit ${limit}`).toEqual(expected.slice(0, limit));
      }
    }
  });
});
