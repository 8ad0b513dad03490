/**
 * After a restart the change stream announces a position that includes what
 * ADK's tables gained while the server was stopped (a Runner writing straight
 * to the database): the server catches up before it announces, as pushes and
 * pulls do. So a device with nothing to push, whose stream reconnects, pulls
 * those events at once instead of on its next full round.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, DatabaseSessionService, type Session } from '@google/adk';
import { LibSqlDriver } from '@mikro-orm/libsql';
import { afterAll, expect, it, vi } from 'vitest';
import { RECHECK_MS } from '../../../server/catch-up.js';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';
import { type Device, device, say, textsOf } from '../../sync/devices.js';

vi.setConfig({ testTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), 'sync-restart-'));
const file = join(dir, 'sync.db');
const authenticate = (token: string) => (token === 't' ? { userId: 'alice', appName: 'chat' } : undefined);
/** Far longer than the test: a round on the schedule must not be what delivers the events. */
const ROUND_MS = 120_000;
/** The bound on delivery after the restart: a reconnect (at most 200 ms here) and one pull, with room for a loaded machine; a third of the default 30 s round. */
const PROMPTLY_MS = 10_000;

let server: RunningSyncServer | undefined;
/** The port of the first start: each restart listens on it again, where the device looks. */
let port = 0;
let a: Device | undefined;
afterAll(async () => {
  await a?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

it('a device whose stream reconnects after a restart pulls at once what a Runner wrote to the database meanwhile', async () => {
  server = await startSyncServer({ file, port: 0, authenticate });
  port = server.port;
  a = device(server.url, 't', { live: true, intervalMs: ROUND_MS, retry: { minMs: 50, maxMs: 200 } });
  a.sync.start();
  await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 'restart' });
  await say(a.store, 'restart', 'from the device');
  expect((await a.sync.syncNow()).pending).toBe(0);

  await server.close();
  server = undefined;
  // What an ADK Runner on another process does: its own DatabaseSessionService on the same database.
  const adk = new DatabaseSessionService({ driver: LibSqlDriver, dbName: file });
  const session = (await adk.getSession({ appName: 'chat', userId: 'alice', sessionId: 'restart' })) as Session;
  await adk.appendEvent({
    session,
    event: createEvent({
      invocationId: 'runner',
      author: 'assistant',
      timestamp: Date.now(),
      content: { role: 'model', parts: [{ text: 'written while the server was stopped' }] },
    }),
  });
  await (adk as unknown as { orm: { close(): Promise<void> } }).orm.close();

  server = await startSyncServer({ file, port, authenticate });
  const restarted = Date.now();
  const arrived = await until(
    async () => (await textsOf((a as Device).store, 'restart')).includes('written while the server was stopped'),
    PROMPTLY_MS,
  );
  expect(arrived, `not pulled within ${PROMPTLY_MS} ms of the restart`).toBe(true);
  expect(Date.now() - restarted).toBeLessThan(PROMPTLY_MS);
  expect(await textsOf(a.store, 'restart')).toEqual(['from the device', 'written while the server was stopped']);
});

it('an event ADK stored with a time in seconds (as adk-python writes) still reaches the device: appends refuse such times, pulls do not', async () => {
  await server?.close();
  server = undefined;
  const adk = new DatabaseSessionService({ driver: LibSqlDriver, dbName: file });
  const session = await adk.createSession({ appName: 'chat', userId: 'alice', sessionId: 'seconds' });
  const event = createEvent({
    invocationId: 'python',
    author: 'assistant',
    content: { role: 'model', parts: [{ text: 'dated in seconds' }] },
  });
  event.timestamp = 1_700_000_000.5;
  await adk.appendEvent({ session, event });
  await (adk as unknown as { orm: { close(): Promise<void> } }).orm.close();

  server = await startSyncServer({ file, port, authenticate });
  const arrived = await until(async () => (await textsOf((a as Device).store, 'seconds')).length > 0, PROMPTLY_MS);
  expect(arrived, `not pulled within ${PROMPTLY_MS} ms of the restart`).toBe(true);
  const pulled = await (a as Device).store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'seconds' });
  expect(pulled?.events.map((e) => e.timestamp)).toEqual([1_700_000_000.5]);
});

it('a device with its stream open gets what a writer around the running server (ADK dev UI, a Runner of its own) adds, within the recheck', async () => {
  // The server runs on: no restart, no push and no scheduled round to bring it.
  expect(server).toBeDefined();
  const adk = new DatabaseSessionService({ driver: LibSqlDriver, dbName: file });
  try {
    const session = (await adk.getSession({ appName: 'chat', userId: 'alice', sessionId: 'restart' })) as Session;
    await adk.appendEvent({
      session,
      event: createEvent({
        invocationId: 'beside',
        author: 'assistant',
        content: { role: 'model', parts: [{ text: 'written beside the running server' }] },
      }),
    });
    await adk.createSession({ appName: 'chat', userId: 'alice', sessionId: 'made-beside' });
  } finally {
    await (adk as unknown as { orm: { close(): Promise<void> } }).orm.close();
  }
  const within = RECHECK_MS + PROMPTLY_MS;
  const arrived = await until(
    async () =>
      (await textsOf((a as Device).store, 'restart')).includes('written beside the running server') &&
      (await (a as Device).store.getSession({ appName: 'chat', userId: 'alice', sessionId: 'made-beside' })) !==
        undefined,
    within,
  );
  expect(arrived, `not pulled within ${within} ms`).toBe(true);
});
