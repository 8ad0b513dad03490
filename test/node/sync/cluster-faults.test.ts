/**
 * Faults of the database under two server processes on one Postgres: Postgres restarted mid-run
 * (every connection dropped at once, LISTEN included), and one process partitioned from it while it
 * holds a session's lock mid-push. In both, devices keep syncing through a balancer over the two
 * processes, and when it is over nothing they were told was stored is lost, nothing is doubled, the
 * user's sequence numbers are dense, every device holds the same order, and change streams poke again.
 * Without Postgres this file fails on purpose, as postgres.test.ts does.
 */
import type { Session } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Balancer, startBalancer } from '../../sync/balancer.js';
import { type Device, device, say, textsOf, turn } from '../../sync/devices.js';
import { type Partition, startPartition } from '../../sync/partition.js';
import { POSTGRES_MISSING, type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';
import { type ServerProcess, startServer, TOKENS } from '../../sync/server-process.js';

vi.setConfig({ testTimeout: 90_000 });

const ALICE = { appName: 'chat', userId: 'alice' };
const headers = { authorization: `Bearer ${TOKENS.alice}` };
const root = (base: string) => `${base}/v1/apps/chat/users/alice`;

interface LoggedChange {
  seq: number;
  type: string;
  sessionId: string;
  event?: { id: string };
}

async function changes(base: string): Promise<LoggedChange[]> {
  const all: LoggedChange[] = [];
  let after = 0;
  for (;;) {
    const page = (await (await fetch(`${root(base)}/changes?after=${after}`, { headers })).json()) as {
      changes: LoggedChange[];
      cursor: number;
      more: boolean;
    };
    all.push(...page.changes);
    after = page.cursor;
    if (!page.more) return all;
  }
}

/** The log is dense and holds each of `sessionId`'s events once, in the order every device shows. */
async function expectSettled(base: string, sessionId: string, devices: Device[], said: string[]): Promise<void> {
  const log = await changes(base);
  expect(log.map((c) => c.seq)).toEqual(log.map((_, i) => i + 1));
  const ids = log.filter((c) => c.type === 'event' && c.sessionId === sessionId).map((c) => c.event?.id);
  expect(new Set(ids).size).toBe(ids.length);
  const order = await textsOf((devices[0] as Device).store, sessionId);
  expect([...order].sort()).toEqual([...said].sort());
  for (const d of devices) expect(await textsOf(d.store, sessionId)).toEqual(order);
}

/** Syncs `d` until a round succeeds with nothing pending (the database may take a while to come back). */
async function syncedAgain(d: Device): Promise<void> {
  await vi.waitFor(
    async () => {
      const status = await d.sync.syncNow();
      expect(status.lastError).toBeNull();
      expect(status.pending).toBe(0);
    },
    { timeout: 60_000, interval: 500 },
  );
}

/** The first poke of `base`'s change stream past `cursor`. */
async function pokedPast(base: string, cursor: number, within: number): Promise<number> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), within);
  try {
    const answer = await fetch(`${root(base)}/stream`, { headers, signal: controller.signal });
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffered += decoder.decode(value, { stream: true });
      for (const found of buffered.matchAll(/event: poke\ndata: \{"cursor":(\d+)\}\n\n/g)) {
        if (Number(found[1]) > cursor) return Number(found[1]);
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

const bin = postgresBin();

if (!bin) {
  it('has Postgres installed to run the cluster fault tests', () => {
    throw new Error(POSTGRES_MISSING);
  });
} else {
  let postgres: Postgres;
  let partition: Partition;
  let a: ServerProcess;
  let b: ServerProcess;
  /** Which processes the balancer sends to: both, or only the one still reaching the database. */
  let targets: () => string[];
  let balancer: Balancer;
  beforeAll(async () => {
    postgres = await startPostgres(bin);
    partition = await startPartition(postgres.url);
    // `a` reaches Postgres through the relay a test can cut; `b` directly.
    a = await startServer({ DATABASE_URL: partition.url });
    b = await startServer({ DATABASE_URL: postgres.url });
    targets = () => [a.url, b.url];
    balancer = await startBalancer(() => targets());
  }, 120_000);
  afterAll(async () => {
    await balancer?.close();
    await a?.stop();
    await b?.stop();
    await partition?.close();
    postgres?.stop();
  });

  describe('two server processes, the database failing under them', () => {
    it('Postgres restarted mid-run: devices sync on once it is back, nothing lost or doubled, streams poke again', async () => {
      const devices = [0, 1].map(() => device(balancer.url, TOKENS.alice, { requestTimeoutMs: 5_000 }));
      const said: string[] = [];
      try {
        await devices[0]?.store.createSession({ ...ALICE, sessionId: 'restarted' });
        for (const d of devices) await syncedAgain(d);
        let failed = 0;
        let restarting = true;
        const rounds = async (i: number, count: number) => {
          const d = devices[i] as Device;
          // Through the restart, and two rounds after it.
          for (let round = 0, after = 0; round < count || restarting || after++ < 2; round++) {
            const texts = [`d${i}-r${round}-a`, `d${i}-r${round}-b`];
            await say(d.store, 'restarted', ...texts);
            said.push(...texts);
            // A round while the database is down fails, says why, and leaves its events pending.
            const { lastError } = await d.sync.syncNow();
            if (lastError === null) continue;
            failed += 1;
            // Told the database is out of reach (503), or the connection dropped: never a server fault.
            expect([0, 503]).toContain(lastError.status);
          }
        };
        const running = Promise.all([rounds(0, 3), rounds(1, 3)]);
        await postgres.restart();
        restarting = false;
        await running;
        expect(failed, 'no round ran while Postgres was down').toBeGreaterThan(0);
        for (let pass = 0; pass < 2; pass++) for (const d of devices) await syncedAgain(d);
        await expectSettled(b.url, 'restarted', devices, said);
        // Each process listens again (its LISTEN connection died with the restart) and pokes a push made at the other.
        const head = (await changes(b.url)).at(-1)?.seq ?? 0;
        const poked = pokedPast(a.url, head, 20_000);
        targets = () => [b.url];
        await say((devices[0] as Device).store, 'restarted', 'after the restart');
        await syncedAgain(devices[0] as Device);
        expect(await poked).toBeGreaterThan(head);
      } finally {
        targets = () => [a.url, b.url];
        for (const d of devices) await d.close();
      }
    });

    it("a process partitioned from Postgres mid-push: the other takes the session once the stuck transaction's lock falls, and the push lands once", async () => {
      const d = device(balancer.url, TOKENS.alice, { requestTimeoutMs: 4_000 });
      const other = device(balancer.url, TOKENS.alice);
      try {
        await d.store.createSession({ ...ALICE, sessionId: 'partitioned' });
        await syncedAgain(d);
        await syncedAgain(other);
        // A push large enough that `a` is inside its section (the session's lock held) when the link is cut.
        const session = (await d.store.getSession({ ...ALICE, sessionId: 'partitioned' })) as Session;
        const words = 'a longer message so that the push takes the server a while to write. '.repeat(20);
        const events = Array.from({ length: 300 }, (_, i) => turn(`${i} ${words}`, `inv-${Math.floor(i / 3)}`));
        await d.store.appendEvents({ session, events });
        targets = () => [a.url];
        const cut = new Promise((resolve) => setTimeout(resolve, 150)).then(() => partition.cut());
        const stuck = await d.sync.syncNow();
        await cut;
        // `a` never answered: the device gave up after its request timeout, with the events pending.
        expect(stuck.lastError).not.toBeNull();
        expect(stuck.pending).toBeGreaterThan(0);
        // The balancer's health check takes `a` out; the retry goes to `b`, which waits for the lock
        // the partitioned transaction holds until Postgres ends that transaction.
        targets = () => [b.url];
        await syncedAgain(d);
        await say(other.store, 'partitioned', 'from the other device');
        await syncedAgain(other);
        await syncedAgain(d);
        const texts = events.map((e) => e.content?.parts?.[0]?.text as string);
        await expectSettled(b.url, 'partitioned', [d, other], [...texts, 'from the other device']);
        // Healed, `a` serves again (its pool drops the connections the partition froze) and agrees.
        partition.heal();
        targets = () => [a.url];
        await vi.waitFor(async () => expect((await changes(a.url)).length).toBe((await changes(b.url)).length), {
          timeout: 30_000,
          interval: 500,
        });
        await say(d.store, 'partitioned', 'through a again');
        await syncedAgain(d);
        await syncedAgain(other);
        await expectSettled(b.url, 'partitioned', [d, other], [...texts, 'from the other device', 'through a again']);
      } finally {
        partition.heal();
        targets = () => [a.url, b.url];
        await d.close();
        await other.close();
      }
    });
  });
}
