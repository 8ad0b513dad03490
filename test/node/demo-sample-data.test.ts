/** Sample data: what it writes, that it is seeded, that it stops when told. */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSampleOptions, generateSampleData, TOPICS } from '../../demo/sample-data.js';
import { IndexedDbSessionService, type Session } from '../../src/index.js';

let store: IndexedDbSessionService;
let n = 0;
const fresh = () => {
  store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: `sample-${n++}` });
  return store;
};
afterEach(() => store?.close());

const all = async (appName: string): Promise<Session[]> => {
  const listed = await store.listSessions({ appName, order: 'asc' });
  return Promise.all(
    listed.sessions.map(
      async (s) => (await store.getSession({ appName, userId: s.userId, sessionId: s.id })) as Session,
    ),
  );
};

describe('generateSampleData', () => {
  it('writes N sessions x M events over the users, with every scope and tool calls', async () => {
    fresh();
    const progress: [number, number][] = [];
    const result = await generateSampleData(store, {
      appName: 'sample',
      users: 3,
      sessions: 70,
      eventsPerSession: 8,
      now: 1_700_000_000_000,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result).toEqual({ sessions: 70, events: 560 });
    expect(progress).toEqual([
      [0, 70],
      [50, 70],
      [70, 70],
    ]);
    expect(await store.listUsers({ appName: 'sample' })).toEqual([
      { appName: 'sample', userId: 'user-001', sessionCount: 24 },
      { appName: 'sample', userId: 'user-002', sessionCount: 23 },
      { appName: 'sample', userId: 'user-003', sessionCount: 23 },
    ]);
    const sessions = await all('sample');
    expect(sessions.every((s) => s.events.length === 8)).toBe(true);
    // Events in each session are in time order, and sessions end at distinct times.
    for (const s of sessions) {
      const times = s.events.map((e) => e.timestamp);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(s.lastUpdateTime).toBe(times.at(-1));
    }
    expect(new Set(sessions.map((s) => s.lastUpdateTime)).size).toBe(70);
    const keys = new Set(sessions.flatMap((s) => s.events.flatMap((e) => Object.keys(e.actions?.stateDelta ?? {}))));
    expect([...keys].sort()).toEqual(['app:message_count', 'step', 'topic', 'user:name', 'user:plan']);
    const parts = sessions.flatMap((s) => s.events.flatMap((e) => e.content?.parts ?? []));
    expect(parts.some((p) => p.functionCall?.name === 'add')).toBe(true);
    expect(parts.some((p) => p.functionResponse?.name === 'add')).toBe(true);
    // The app counter ends at the number of agent replies written.
    expect((await store.getAppState({ appName: 'sample' })).message_count).toBe(70 * 4);
  });

  it('gives the same content for the same seed', async () => {
    fresh();
    const content = async (appName: string) => {
      await generateSampleData(store, { appName, users: 2, sessions: 5, eventsPerSession: 6, seed: 7, now: 1e12 });
      return (await all(appName)).map((s) => [
        s.userId,
        s.lastUpdateTime,
        s.events.map((e) => [e.author, e.timestamp, e.content, e.actions?.stateDelta]),
      ]);
    };
    expect(await content('one')).toEqual(await content('two'));
  });

  it('gives each user with as many sessions as there are topics every topic, so the CJK searches always find one', async () => {
    fresh();
    const users = 2;
    // The demo seeds with the clock: these seeds include ones whose random draw left a user without a topic.
    for (let seed = 1; seed <= 40; seed++) {
      const appName = `seed-${seed}`;
      await generateSampleData(store, { appName, users, sessions: users * TOPICS.length, eventsPerSession: 2, seed });
      for (const userId of ['user-001', 'user-002']) {
        const { sessions } = await store.listSessions({ appName, userId });
        expect(new Set(sessions.map((s) => s.state.topic))).toEqual(new Set(TOPICS.map(([name]) => name)));
        for (const query of ['酒店', 'ホテル']) {
          const { hits } = await store.searchEvents({ appName, userId, query, limit: 1 });
          expect(hits, `seed ${seed}, ${userId}, ${query}`).toHaveLength(1);
        }
      }
    }
  }, 60_000);

  it('stops between rounds when aborted', async () => {
    fresh();
    const stop = new AbortController();
    const result = await generateSampleData(store, {
      appName: 'stopped',
      users: 1,
      sessions: 500,
      eventsPerSession: 1,
      signal: stop.signal,
      onProgress: (done) => {
        if (done >= 100) stop.abort();
      },
    });
    expect(result.sessions).toBe(100);
    expect((await store.listSessions({ appName: 'stopped', limit: 0 })).totalItems).toBe(100);
  });

  it('rejects options out of range before writing anything', async () => {
    fresh();
    expect(checkSampleOptions({ appName: 'a', users: 0, sessions: 1, eventsPerSession: 1 })).toMatch(/users/);
    expect(checkSampleOptions({ appName: 'a', users: 1, sessions: 1.5, eventsPerSession: 1 })).toMatch(/sessions/);
    expect(checkSampleOptions({ appName: ' a', users: 1, sessions: 1, eventsPerSession: 1 })).toMatch(/app name/);
    expect(checkSampleOptions({ appName: 'a', users: 1, sessions: 1, eventsPerSession: 1001 })).toMatch(
      /eventsPerSession/,
    );
    await expect(
      generateSampleData(store, { appName: 'a', users: 1, sessions: 0, eventsPerSession: 1 }),
    ).rejects.toThrow(RangeError);
    expect(await store.listApps()).toEqual([]);
  });
});
