/** createAppender: the stale-retry pattern a UI needs, on the in-thread store with another tab writing. */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAppender,
  IndexedDbSessionService,
  InvalidInputError,
  type Session,
  SessionNotFoundError,
  StaleSessionError,
} from '../../src/index.js';
import { makeEvent } from '../contract/contract.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 's1' };
let n = 0;
const open: IndexedDbSessionService[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

function twoTabs(): { mine: IndexedDbSessionService; theirs: IndexedDbSessionService } {
  const indexedDB = new IDBFactory();
  const dbName = `appender-${n++}`;
  const mine = new IndexedDbSessionService({ dbName, indexedDB });
  const theirs = new IndexedDbSessionService({ dbName, indexedDB });
  open.push(mine, theirs);
  return { mine, theirs };
}

const increment = (session: Session) => makeEvent({ stateDelta: { count: Number(session.state.count ?? 0) + 1 } });

async function theyIncrement(theirs: IndexedDbSessionService): Promise<void> {
  const session = (await theirs.getSession(key)) as Session;
  await theirs.appendEvent({ session, event: increment(session) });
}

describe('createAppender', () => {
  it('rebuilds from the fresh state and retries when another tab moved the session on', async () => {
    const { mine, theirs } = twoTabs();
    await theirs.createSession({ ...key, state: { count: 0 } });
    const append = createAppender(mine, key);
    await append(increment);
    await theyIncrement(theirs);
    const builds: unknown[] = [];
    const stored = await append((session) => {
      builds.push(session.state.count);
      return increment(session);
    });
    expect(builds).toEqual([1, 2]);
    expect(stored[0]?.actions?.stateDelta).toEqual({ count: 3 });
    expect((await mine.getSession(key))?.state.count).toBe(3);
  });

  it('passes StaleSessionError on after its attempts, having stored nothing', async () => {
    const { mine, theirs } = twoTabs();
    await theirs.createSession(key);
    const append = createAppender(mine, key, { attempts: 1 });
    await append(makeEvent({ id: 'first' }));
    await theyIncrement(theirs);
    await expect(append(makeEvent({ id: 'lost' }))).rejects.toBeInstanceOf(StaleSessionError);
    expect((await mine.getSession(key))?.events.map((e) => e.id)).not.toContain('lost');
  });

  it('stores all the events of one call or none: an invalid one stops the others', async () => {
    const { mine } = twoTabs();
    await mine.createSession(key);
    const append = createAppender(mine, key);
    await expect(append([makeEvent({ id: 'ok' }), makeEvent({ id: '' })])).rejects.toBeInstanceOf(InvalidInputError);
    expect((await mine.getSession(key))?.events).toEqual([]);
    const stored = await append([makeEvent({ id: 'a' }), makeEvent({ id: 'b' })]);
    expect(stored.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('rejects with SessionNotFoundError for an unknown session, and finds it once created', async () => {
    const { mine } = twoTabs();
    const append = createAppender(mine, key);
    await expect(append(makeEvent())).rejects.toBeInstanceOf(SessionNotFoundError);
    await mine.createSession(key);
    await expect(append(makeEvent({ id: 'later' }))).resolves.toHaveLength(1);
  });
});
