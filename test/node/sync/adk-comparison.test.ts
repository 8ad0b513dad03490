/**
 * The server's periodic comparison of its change log with ADK's tables (server/adk-comparison.ts)
 * finds writes made around the server, and after an agreement counts events only where ADK's
 * sessions moved: its steady cost for a large user with an open stream is one read of a row per
 * session, not of every event. On libsql and Postgres (whose driver gives update times as Dates).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, type Session } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdkComparison } from '../../../server/adk-comparison.js';
import { type Database, openDatabase, type Sql } from '../../../server/database.js';
import { ChangeLog, type NewRow } from '../../../server/log.js';
import { type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';

vi.setConfig({ testTimeout: 60_000 });

const bin = postgresBin();
const drivers = bin ? (['libsql', 'postgres'] as const) : (['libsql'] as const);
const user = { appName: 'chat', userId: 'ada' };

describe.each(drivers)('comparing the log with ADK’s tables, on %s', (driver) => {
  let database: Database;
  let postgres: Postgres | undefined;
  let dir: string;
  /** The statements the comparison ran since the last `took()`. */
  let statements: { query: string; params: unknown[] }[] = [];
  const recorded: Sql = (query, params = []) => {
    statements.push({ query, params });
    return database.sql(query, params);
  };
  const took = () => {
    const out = statements;
    statements = [];
    return out;
  };
  const countsEvents = (s: { query: string }) => /\bFROM events\b/.test(s.query);
  let log: ChangeLog;
  let t = 1_800_000_000_000;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adk-comparison-'));
    postgres = driver === 'postgres' ? await startPostgres(bin as string) : undefined;
    database = await openDatabase(postgres ? { url: postgres.url } : { file: join(dir, 'adk.db') });
    log = new ChangeLog(database.sql);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What a writer around the server does: ADK's own `appendEvent`; the event's timestamp is `at`, or the next. */
  async function appendAround(sessionId: string, at?: number) {
    t += 1000;
    const session = (await database.sessions.getSession({ ...user, sessionId })) as Session;
    const event = createEvent({ invocationId: `inv-${t}`, author: 'model', content: { parts: [{ text: 'x' }] } });
    event.timestamp = at ?? t;
    await database.sessions.appendEvent({ session, event });
    return event;
  }
  /** The log catching up with ADK's session `sessionId`: its rows, as the server's catch-up writes them. */
  async function logAll(sessionId: string) {
    const session = (await database.sessions.getSession({ ...user, sessionId })) as Session;
    const head = await log.head(user, sessionId);
    const rows: NewRow[] = head ? [] : [{ kind: 'created', sessionId, pos: 0, eventId: null, ts: 0, data: {} }];
    const pos = head?.pos ?? 0;
    session.events.slice(pos).forEach((e, i) => {
      rows.push({ kind: 'event', sessionId, pos: pos + i + 1, eventId: e.id, ts: e.timestamp, data: e });
    });
    if (rows.length > 0) await log.append(user, rows);
  }

  it('agrees at a full read, then reads no event while nothing moved, and counts only a session that moved', async () => {
    const comparison = new AdkComparison(recorded);
    for (const sessionId of ['a', 'b', 'c']) {
      await database.sessions.createSession({ ...user, sessionId });
      for (let i = 0; i < 3; i++) await appendAround(sessionId);
      await logAll(sessionId);
    }
    took();
    expect(await comparison.differs(user)).toBe(false);
    expect(took().some(countsEvents), 'the first comparison is full').toBe(true);

    expect(await comparison.differs(user)).toBe(false);
    expect(took().some(countsEvents), 'nothing moved: no event counted').toBe(false);

    await appendAround('b');
    expect(await comparison.differs(user), 'an event written around the server').toBe(true);
    const counted = took().filter(countsEvents);
    expect(counted).toHaveLength(1);
    expect(counted[0]?.params.slice(2)).toEqual(['b']);

    // A difference drops the agreement: after the catch-up, the next comparison is full again.
    await logAll('b');
    expect(await comparison.differs(user)).toBe(false);
    expect(took().some(countsEvents)).toBe(true);
    expect(await comparison.differs(user)).toBe(false);
    expect(took().some(countsEvents)).toBe(false);
  });

  it('finds a session made or deleted around the server, and a push the log and ADK both got is no difference', async () => {
    const comparison = new AdkComparison(recorded);
    expect(await comparison.differs(user)).toBe(false);

    await database.sessions.createSession({ ...user, sessionId: 'made-around' });
    expect(await comparison.differs(user)).toBe(true);
    await logAll('made-around');
    expect(await comparison.differs(user)).toBe(false);

    // What the server does on a push: ADK's rows and the log's, both.
    await appendAround('a');
    await logAll('a');
    took();
    expect(await comparison.differs(user)).toBe(false);
    expect(took().filter(countsEvents)[0]?.params.slice(2)).toEqual(['a']);

    await database.sessions.deleteSession({ ...user, sessionId: 'c' });
    expect(await comparison.differs(user)).toBe(true);
    await log.append(user, [{ kind: 'deleted', sessionId: 'c', pos: 0, eventId: null, ts: 0, data: {} }]);
    expect(await comparison.differs(user)).toBe(false);
  });

  it('a write that left the update time as it was is found by the next full comparison', async () => {
    const fullMs = 200;
    const comparison = new AdkComparison(recorded, fullMs);
    expect(await comparison.differs(user)).toBe(false);
    const last = (await database.sessions.getSession({ ...user, sessionId: 'a' })) as Session;
    await appendAround('a', last.lastUpdateTime);
    // Within the agreement's time this write is unseen, as the module's contract says.
    expect(await comparison.differs(user)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, fullMs + 50));
    expect(await comparison.differs(user)).toBe(true);
  });
});
