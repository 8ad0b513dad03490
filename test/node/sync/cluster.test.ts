/**
 * Two server processes on one throw-away Postgres hold the guarantees of one: a user's sequence
 * numbers unique and gap-free and each session in push order whichever process took each push,
 * change streams on one process hearing pushes made at the other (also once its LISTEN connection
 * was cut), `runExclusive` in a third process keeping out pushes that arrive at the others and
 * queueing turns beyond its bound, and a process SIGKILLed mid-push costing nothing:
 * the device's retry at the other process lands exactly once. The model-based suite runs behind a
 * round-robin balancer over both. libsql, one process per file, refuses a second process (through
 * main.ts here; the owner file's cases in owner-file.test.ts).
 * Without Postgres this file fails on purpose, as postgres.test.ts does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, type Session } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL, TURNS } from '../../../server/coordination.js';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';
import { type Balancer, startBalancer } from '../../sync/balancer.js';
import { device, say, textsOf, turn } from '../../sync/devices.js';
import { POSTGRES_MISSING, type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';
import { type ServerProcess, startServer, TOKENS } from '../../sync/server-process.js';
import { modelSuite } from '../../sync/suites/model-based.js';

vi.setConfig({ testTimeout: 60_000 });

const ALICE = { appName: 'chat', userId: 'alice' };
const headers = { authorization: `Bearer ${TOKENS.alice}`, 'content-type': 'application/json' };
const root = (base: string) => `${base}/v1/apps/chat/users/alice`;

async function create(base: string, sessionId: string): Promise<void> {
  const answer = await fetch(`${root(base)}/sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ sessionId }),
  });
  expect(answer.status).toBe(201);
}

async function push(base: string, sessionId: string, after: number, events: unknown[]) {
  const answer = await fetch(`${root(base)}/sessions/${sessionId}/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ after, events }),
  });
  return {
    status: answer.status,
    body: (await answer.json()) as { head: number; events?: { event: { id: string } }[] },
  };
}

interface LoggedChange {
  seq: number;
  type: string;
  sessionId: string;
  pos?: number;
  event?: { id: string };
}

/** Every change of alice's log, page by page. */
async function changes(base: string): Promise<LoggedChange[]> {
  const all: LoggedChange[] = [];
  let after = 0;
  for (;;) {
    const answer = await fetch(`${root(base)}/changes?after=${after}`, { headers });
    const page = (await answer.json()) as { changes: LoggedChange[]; cursor: number; more: boolean };
    all.push(...page.changes);
    after = page.cursor;
    if (!page.more) return all;
  }
}

function expectDense(log: LoggedChange[]): void {
  expect(log.map((c) => c.seq)).toEqual(log.map((_, i) => i + 1));
}

/** The session's events in the log, in log order. */
const eventsOf = (log: LoggedChange[], sessionId: string) =>
  log.filter((c) => c.type === 'event' && c.sessionId === sessionId);

/** A change stream's pokes, read as they come. */
async function openStream(base: string) {
  const controller = new AbortController();
  const answer = await fetch(`${root(base)}/stream`, { headers, signal: controller.signal });
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const nextPoke = async (): Promise<number> => {
    for (;;) {
      const found = /event: poke\ndata: \{"cursor":(\d+)\}\n\n/.exec(buffered);
      if (found) {
        buffered = buffered.slice((found.index ?? 0) + found[0].length);
        return Number(found[1]);
      }
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no poke within 5 s')), 5_000)),
      ]);
      if (done) throw new Error('the stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };
  return {
    nextPoke,
    /** The first poke with a cursor past `cursor`. */
    async pokePast(cursor: number): Promise<number> {
      let next = cursor;
      while (next <= cursor) next = await nextPoke();
      return next;
    },
    close: () => controller.abort(),
  };
}

const bin = postgresBin();

if (!bin) {
  it('has Postgres installed to run the cluster tests', () => {
    throw new Error(POSTGRES_MISSING);
  });
} else {
  let postgres: Postgres;
  let a: ServerProcess;
  let b: ServerProcess;
  let balancer: Balancer;
  let third: RunningSyncServer;
  beforeAll(async () => {
    postgres = await startPostgres(bin);
    // At once, on the empty database: the schema lock (database.ts) lets both create the tables.
    [a, b] = await Promise.all([
      startServer({ DATABASE_URL: postgres.url }),
      startServer({ DATABASE_URL: postgres.url }),
    ]);
    balancer = await startBalancer(() => [a.url, b.url]);
    // In this process: for agent turns, and for SQL the tests run on the database.
    third = await startSyncServer({ url: postgres.url, port: 0, authenticate: () => ALICE });
  }, 120_000);
  afterAll(async () => {
    await third?.close();
    await balancer?.close();
    await a?.stop();
    await b?.stop();
    postgres?.stop();
  });

  describe('two server processes on one Postgres', () => {
    it('concurrent pushes to one user at both processes: sequence numbers 1..n, each session in push order', async () => {
      const sessions = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
      await Promise.all(sessions.map((s, i) => create(i % 2 ? b.url : a.url, s)));
      const sent = new Map<string, string[]>();
      // Every session's pushes in a chain, alternating processes; the chains run at once, so the
      // user's sequence numbers are handed out by both processes concurrently.
      await Promise.all(
        sessions.map(async (s, i) => {
          let head = 0;
          for (let round = 0; round < 5; round++) {
            const events = [0, 1, 2].map((n) => turn(`${s}-${round}-${n}`, `inv-${s}-${round}`, { [`k${n}`]: round }));
            const answer = await push((i + round) % 2 ? a.url : b.url, s, head, events);
            expect(answer.status).toBe(200);
            head = answer.body.head;
            sent.set(s, [...(sent.get(s) ?? []), ...events.map((e) => e.id)]);
          }
        }),
      );
      const log = await changes(a.url);
      expectDense(log);
      expect(await changes(b.url)).toEqual(log);
      for (const s of sessions) {
        const mine = eventsOf(log, s);
        expect(mine.map((c) => c.event?.id)).toEqual(sent.get(s));
        expect(mine.map((c) => c.pos)).toEqual(mine.map((_, i) => i + 1));
      }
    });

    it('devices of one user syncing through a round-robin balancer converge with nothing lost, doubled or reordered', async () => {
      const devices = [0, 1, 2].map(() => device(balancer.url, TOKENS.alice));
      const [d0] = devices as [ReturnType<typeof device>];
      try {
        await d0.store.createSession({ ...ALICE, sessionId: 'shared' });
        await d0.sync.syncNow();
        for (const d of devices) await d.sync.syncNow();
        const said: string[] = [];
        for (let round = 0; round < 4; round++) {
          await Promise.all(
            devices.map(async (d, i) => {
              const texts = [`d${i}-r${round}-a`, `d${i}-r${round}-b`];
              await say(d.store, 'shared', ...texts);
              said.push(...texts);
              await d.sync.syncNow();
            }),
          );
        }
        for (let round = 0; round < 2; round++) {
          for (const d of devices) expect((await d.sync.syncNow()).lastError).toBeNull();
        }
        const order = await textsOf(d0.store, 'shared');
        expect([...order].sort()).toEqual([...said].sort());
        for (const d of devices) expect(await textsOf(d.store, 'shared')).toEqual(order);
        // Each device's own appends keep their order (one invocation's two events stay adjacent).
        for (const text of said.filter((t) => t.endsWith('-a'))) {
          expect(order[order.indexOf(text) + 1]).toBe(text.replace(/-a$/, '-b'));
        }
        const log = await changes(b.url);
        expectDense(log);
        expect(eventsOf(log, 'shared').map((c) => c.event?.id).length).toBe(said.length);
        expect(balancer.served[0]).toBeGreaterThan(5);
        expect(balancer.served[1]).toBeGreaterThan(5);
      } finally {
        for (const d of devices) await d.close();
      }
    });

    it('a change stream on one process hears a push made at the other', async () => {
      await create(a.url, 'heard');
      const stream = await openStream(a.url);
      try {
        const first = await stream.nextPoke();
        expect((await push(b.url, 'heard', 0, [turn('at b', 'inv-heard')])).status).toBe(200);
        expect(await stream.pokePast(first)).toBe((await changes(b.url)).at(-1)?.seq);
      } finally {
        stream.close();
      }
    });

    it('a process whose LISTEN connection is cut listens again; a foreign payload on the channel harms nothing', async () => {
      await create(a.url, 'relisten');
      const stream = await openStream(a.url);
      try {
        const first = await stream.nextPoke();
        await third.service.database.sql(`NOTIFY ${CHANNEL}, 'junk'`);
        const listening = async () =>
          (await third.service.database.sql("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")).map((row) =>
            Number(row.pid),
          );
        const cut = await listening();
        expect(cut.length).toBe(3);
        await third.service.database.sql(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'`,
        );
        // Every process makes its connection again a second after losing it; push only once they have.
        await vi.waitFor(
          async () => {
            const now = await listening();
            expect(now.filter((pid) => !cut.includes(pid)).length).toBe(3);
          },
          { timeout: 10_000, interval: 100 },
        );
        expect((await push(b.url, 'relisten', 0, [turn('after the cut', 'inv-relisten')])).status).toBe(200);
        expect(await stream.pokePast(first)).toBe((await changes(b.url)).at(-1)?.seq);
        expect((await fetch(`${a.url}/v1/limits`)).status).toBe(200);
      } finally {
        stream.close();
      }
    });

    it('three servers started at once on an empty database all come up', async () => {
      // In this process: the race is in the database's schema creation, not between processes.
      await third.service.database.sql('CREATE DATABASE empty_start');
      const url = new URL(postgres.url);
      url.pathname = '/empty_start';
      const started = await Promise.allSettled(
        [0, 1, 2].map(() => startSyncServer({ url: url.toString(), port: 0, authenticate: () => ALICE })),
      );
      for (const s of started) if (s.status === 'fulfilled') await s.value.close();
      expect(started.map((s) => (s.status === 'fulfilled' ? 'up' : String(s.reason)))).toEqual(['up', 'up', 'up']);
    });

    it("runs its sections read committed, which the coordination's reasoning needs, whatever the database's default", async () => {
      await third.service.database.sql('CREATE DATABASE serializable_default');
      await third.service.database.sql(
        "ALTER DATABASE serializable_default SET default_transaction_isolation TO 'serializable'",
      );
      const url = new URL(postgres.url);
      url.pathname = '/serializable_default';
      const server = await startSyncServer({ url: url.toString(), port: 0, authenticate: () => ALICE });
      try {
        const [row] = await server.service.database.coordinator.run('any', (section) =>
          section.sql('SHOW transaction_isolation'),
        );
        expect(row?.transaction_isolation).toBe('read committed');
      } finally {
        await server.close();
      }
    });

    describe('runExclusive in a third process', () => {
      it('keeps out a push that arrives at another process until the agent turn is logged', async () => {
        await create(a.url, 'agent');
        expect((await push(b.url, 'agent', 0, [turn('before', 'inv-before')])).status).toBe(200);
        let settled = false;
        let pushed: ReturnType<typeof push> | undefined;
        await third.service.runExclusive(ALICE, 'agent', async () => {
          pushed = push(a.url, 'agent', 1, [turn('from a device', 'inv-device')]);
          pushed.then(() => {
            settled = true;
          });
          // The push is in: waiting on the session's advisory lock, which this turn holds.
          await vi.waitFor(
            async () => {
              const waiting = await third.service.database.sql(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
              );
              expect(waiting.length).toBe(1);
            },
            { timeout: 10_000, interval: 20 },
          );
          expect(settled).toBe(false);
          const session = (await third.service.sessions.getSession({ ...ALICE, sessionId: 'agent' })) as Session;
          await third.service.sessions.appendEvent({
            session,
            event: createEvent({
              invocationId: 'agent-turn',
              author: 'assistant',
              content: { role: 'model', parts: [{ text: 'from the agent' }] },
            }),
          });
        });
        // The device's push was written against position 1, which the agent's turn took.
        const answer = await (pushed as ReturnType<typeof push>);
        expect(answer.status).toBe(409);
        const texts = eventsOf(await changes(b.url), 'agent').map(
          (c) => (c.event as unknown as { content: { parts: { text: string }[] } }).content.parts[0]?.text,
        );
        expect(texts).toEqual(['before', 'from the agent']);
      });

      it('more agent turns at once than a process runs all complete: the rest queue, none starves the pool', async () => {
        // Each turn holds a connection and needs a second for ADK's calls: with the turns unbounded,
        // a pool of 10 froze at 5 or more of them until knex gave up acquiring.
        const ids = Array.from({ length: TURNS + 6 }, (_, i) => `crowd-${i}`);
        await Promise.all(ids.map((id) => third.service.create(ALICE, id, {})));
        let running = 0;
        let most = 0;
        await Promise.all(
          ids.map((id) =>
            third.service.runExclusive(ALICE, id, async () => {
              most = Math.max(most, ++running);
              await new Promise((resolve) => setTimeout(resolve, 50));
              const session = (await third.service.sessions.getSession({ ...ALICE, sessionId: id })) as Session;
              await third.service.sessions.appendEvent({
                session,
                event: createEvent({
                  invocationId: id,
                  author: 'assistant',
                  content: { role: 'model', parts: [{ text: id }] },
                }),
              });
              running--;
            }),
          ),
        );
        expect(most).toBe(TURNS);
        const log = await changes(b.url);
        for (const id of ids) expect(eventsOf(log, id)).toHaveLength(1);
      }, 20_000);
    });

    // Behind the balancer that alternates requests between the two processes.
    modelSuite(
      () =>
        ({
          get url() {
            return balancer.url;
          },
        }) as ServerProcess,
    );

    // Last: it leaves the first process down (afterAll's stop is fine with that), which saves a restart.
    it('a process SIGKILLed mid-push: the device retries at the other, and its events land exactly once', async () => {
      // Killed as the push arrives (before the commit, most likely) and a while into it.
      for (const [round, delay] of [0, 100].entries()) {
        const sessionId = `killed-${delay}`;
        let kill: Promise<void> | undefined;
        const sticky = await startBalancer(() => [a.url, b.url], {
          sticky: true,
          forwarded: (index, method, path) => {
            if (index === 0 && method === 'POST' && path.endsWith('/events') && !kill) {
              kill = new Promise((resolve) => setTimeout(resolve, delay)).then(() => a.kill());
            }
          },
        });
        const d = device(sticky.url, TOKENS.alice);
        try {
          await d.store.createSession({ ...ALICE, sessionId });
          expect((await d.sync.syncNow()).lastError).toBeNull();
          const session = (await d.store.getSession({ ...ALICE, sessionId })) as Session;
          const words = 'a longer message so that the push takes the server a while to write. '.repeat(20);
          const events = Array.from({ length: 300 }, (_, i) => turn(`${i} ${words}`, `inv-${Math.floor(i / 3)}`));
          await d.store.appendEvents({ session, events });
          await d.sync.syncNow();
          await kill;
          expect(kill, 'the push never reached the first process').toBeDefined();
          const retried = await d.sync.syncNow();
          expect(retried.lastError).toBeNull();
          expect(retried.pending).toBe(0);
          const log = await changes(b.url);
          expectDense(log);
          expect(eventsOf(log, sessionId).map((c) => c.event?.id)).toEqual(events.map((e) => e.id));
        } finally {
          await d.close();
          await sticky.close();
          if (round === 0) await a.restart();
        }
      }
    });
  });
}

describe('libsql: one process per file', () => {
  it('a server started on a file a running process holds exits with code 1 and a message naming both', async () => {
    // One launch, through main.ts: which owner files are taken over is owner-file.test.ts's, in-process.
    const dir = mkdtempSync(join(tmpdir(), 'sync-owner-'));
    const dbFile = join(dir, 'sync.db');
    writeFileSync(`${dbFile}.owner`, `${process.pid}\n${hostname()}\n`);
    try {
      await expect(startServer({ SYNC_DB_FILE: dbFile })).rejects.toThrow(
        new RegExp(`exited \\(1\\)[^]*sync server: the sync database \\S+ is in use by server process ${process.pid}:`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
