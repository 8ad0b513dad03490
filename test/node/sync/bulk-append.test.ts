/**
 * The sync server writes a push into ADK's tables in one transaction (server/adk-tables.ts), not
 * by ADK's `appendEvent` once per event. Differential, on random sequences: the same batches
 * written both ways into ADK's `DatabaseSessionService` read back the same through ADK's own
 * readers (`getSession`, whole and windowed; `listSessions`), field by field, on libsql and Postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event as AdkEvent, Session as AdkSession } from '@google/adk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../../server/database.js';
import { type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';

vi.setConfig({ testTimeout: 120_000 });

const bin = postgresBin();
const drivers = bin ? (['libsql', 'postgres'] as const) : (['libsql'] as const);

const key = fc.constantFrom('step', 'plan', 'app:theme', 'app:count', 'user:name', 'user:seen', 'temp:scratch');
const value = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.record({ n: fc.nat(9) }));
const eventArb = fc.record({
  text: fc.string({ maxLength: 12 }),
  author: fc.constantFrom('user', 'model'),
  delta: fc.option(fc.dictionary(key, value, { maxKeys: 3 }), { nil: undefined }),
  // ADK stores nothing of a partial event.
  partial: fc.boolean().map((b) => b && Math.random() < 0.3),
});
/**
 * Batches as pushes bring them: 1-6 pushes of 1-8 events; `again` writes the previous push a second
 * time first (a push retried after its answer or its log write was lost), which rewrites its rows.
 */
const batchesArb = fc.array(
  fc.record({ events: fc.array(eventArb, { minLength: 1, maxLength: 8 }), again: fc.boolean() }),
  { minLength: 1, maxLength: 6 },
);
const initialArb = fc.dictionary(fc.constantFrom('topic', 'step', 'app:theme', 'user:name'), value, { maxKeys: 3 });

describe.each(drivers)('bulk appends into ADK’s tables read as ADK’s own, on %s', (driver) => {
  let database: Database;
  let postgres: Postgres | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulk-append-'));
    postgres = driver === 'postgres' ? await startPostgres(bin as string) : undefined;
    database = await openDatabase(postgres ? { url: postgres.url } : { file: join(dir, 'adk.db') });
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  let runs = 0;
  it('getSession, its windows and listSessions match ADK’s appendEvent on random pushes', async () => {
    await fc.assert(
      fc.asyncProperty(initialArb, batchesArb, async (initial, batches) => {
        runs += 1;
        const keys = (['one-by-one', 'bulk'] as const).map((way) => ({
          appName: `${way}-${runs}`,
          userId: 'ada',
          sessionId: 's',
        }));
        // Events are stamped after both creations, so a session's update time is either its
        // creation's (no whole event written) or its last event's.
        let t = Date.now() + 60_000;
        let n = 0;
        const pushes = batches.map(({ events: batch }) =>
          batch.map((e) => {
            n += 1;
            t += 1 + (n % 3);
            return {
              id: `e${n}`,
              invocationId: `inv${Math.ceil(n / 3)}`,
              author: e.author,
              timestamp: t,
              content: { role: e.author, parts: [{ text: e.text }] },
              actions: { stateDelta: e.delta ?? {}, artifactDelta: {}, requestedAuthConfigs: {} },
              ...(e.partial ? { partial: true } : {}),
            } as unknown as AdkEvent;
          }),
        );
        const created = new Map<string, number>();
        for (const k of keys) {
          const s = await database.sessions.createSession({ ...k, state: structuredClone(initial) });
          created.set(k.appName, s.lastUpdateTime);
        }
        const when = (k: { appName: string }, time: number) => (time === created.get(k.appName) ? 'created' : time);
        const [slow, fast] = keys as [(typeof keys)[0], (typeof keys)[0]];
        // As the server wrote pushes before: ADK's appendEvent on a session object that is never stale.
        const target = { ...slow, id: slow.sessionId, state: {}, events: [], lastUpdateTime: Number.MAX_SAFE_INTEGER };
        const writes = pushes.flatMap((push, i) => (batches[i]?.again && i > 0 ? [pushes[i - 1], push] : [push]));
        for (const push of writes as AdkEvent[][]) {
          for (const event of push) {
            await database.sessions.appendEvent({
              session: target as unknown as AdkSession,
              event: structuredClone(event),
            });
          }
          await database.appendEvents(fast, structuredClone(push));
        }
        const read = async (k: typeof slow, config?: { numRecentEvents?: number; afterTimestamp?: number }) => {
          const s = await database.sessions.getSession({ ...k, ...(config ? { config } : {}) });
          return s && { events: s.events, state: s.state, lastUpdateTime: when(k, s.lastUpdateTime) };
        };
        const times = pushes.flat().map((e) => e.timestamp);
        for (const config of [
          undefined,
          { numRecentEvents: 3 },
          { afterTimestamp: times[Math.floor(times.length / 2)] },
        ]) {
          expect(await read(fast, config)).toEqual(await read(slow, config));
        }
        const listed = async (k: typeof slow) => {
          const [s] = (await database.sessions.listSessions({ appName: k.appName, userId: k.userId })).sessions;
          return s && { state: s.state, lastUpdateTime: when(k, s.lastUpdateTime) };
        };
        expect(await listed(fast)).toEqual(await listed(slow));
      }),
      { numRuns: 25 },
    );
  });

  it('a push of more events than one statement takes lands whole, in order, with the last write of each key', async () => {
    const key = { appName: 'large', userId: 'ada', sessionId: 's' };
    await database.sessions.createSession({ ...key, state: { kept: true } });
    const start = Date.now() + 60_000;
    const events = Array.from(
      { length: 1_234 },
      (_, i) =>
        ({
          id: `big-${i}`,
          invocationId: `inv-${Math.floor(i / 4)}`,
          author: 'model',
          timestamp: start + i,
          content: { role: 'model', parts: [{ text: `part ${i}` }] },
          actions: { stateDelta: { step: i, [`k${i % 7}`]: i, 'user:seen': i } },
        }) as unknown as AdkEvent,
    );
    await database.appendEvents(key, events);
    const read = await database.sessions.getSession(key);
    expect(read?.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(read?.state).toMatchObject({ kept: true, step: 1_233, k0: 1_232, k6: 1_231, 'user:seen': 1_233 });
    expect(read?.lastUpdateTime).toBe(start + 1_233);
  });
});
