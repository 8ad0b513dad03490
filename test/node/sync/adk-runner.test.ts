/**
 * A server-side ADK agent continues a conversation written on a device: the
 * Runner uses the server's own `DatabaseSessionService`, under the session's
 * lock; the device pulls the turn and holds the same order as ADK's readers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, InMemoryArtifactService, LlmAgent, Runner } from '@google/adk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';
import { say as reply, ScriptedModel } from '../../adk/scripted-model.js';
import { device, say, textsOf } from '../../sync/devices.js';
import { faultyNetwork } from '../../sync/faults.js';

let server: RunningSyncServer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sync-runner-'));
  server = await startSyncServer({
    file: join(dir, 'sync.db'),
    port: 0,
    authenticate: (token) => (token === 't' ? { userId: 'alice', appName: 'chat' } : undefined),
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a Runner on the server continues the session; pushes meanwhile wait and land after its turn', async () => {
  const net = faultyNetwork();
  const a = device(server.url, 't', { fetch: net.fetch });
  const key = { appName: 'chat', userId: 'alice', sessionId: 'agent' };
  await a.store.createSession(key);
  await say(a.store, 'agent', 'hello from the device');
  expect((await a.sync.syncNow()).lastError).toBeNull();

  let reached!: () => void;
  const modelCalled = new Promise<void>((resolve) => {
    reached = resolve;
  });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const requests: unknown[] = [];
  const model = new ScriptedModel('server-model', [reply('hello from the server agent')], requests as never, () => {
    reached();
  });
  const gated = Object.assign(Object.create(Object.getPrototypeOf(model)), model) as ScriptedModel;
  gated.generateContentAsync = async function* (request) {
    yield* model.generateContentAsync(request);
    await gate;
  };
  const agent = new LlmAgent({ name: 'assistant', model: gated, instruction: 'Be brief.' });
  const runner = new Runner({
    appName: 'chat',
    agent,
    sessionService: server.service.sessions,
    artifactService: new InMemoryArtifactService(),
  });
  const run = server.service.runExclusive({ appName: 'chat', userId: 'alice' }, 'agent', async () => {
    for await (const _ of runner.runAsync({
      userId: 'alice',
      sessionId: 'agent',
      newMessage: { role: 'user', parts: [{ text: 'continue on the server' }] },
    })) {
      // The events are what the session service stored; the device pulls them.
    }
  });

  await modelCalled;
  await say(a.store, 'agent', 'typed while the agent ran');
  const pushing = a.sync.syncNow();
  while (!net.calls.some((c) => c.startsWith('POST') && c.endsWith('/events'))) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // Time for the request to reach the server and queue behind the run (no duration is asserted).
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await run;
  expect((await pushing).lastError).toBeNull();
  await a.sync.syncNow();

  const order = [
    'hello from the device',
    'continue on the server',
    'hello from the server agent',
    'typed while the agent ran',
  ];
  expect(await textsOf(a.store, 'agent')).toEqual(order);
  // ADK's own reader (ordered by timestamp) sees the same order.
  const adk = await server.service.sessions.getSession(key);
  expect(adk?.events.map((e) => e.content?.parts?.[0]?.text)).toEqual(order);
  const mine = await a.store.getSession(key);
  expect(mine?.events.map((e) => e.id)).toEqual(adk?.events.map((e) => e.id));
  // The agent was given the device's turn as history.
  expect(JSON.stringify(requests)).toContain('hello from the device');
  await a.close();
}, 60_000);

it("a server-side write stamped in the same millisecond as the session's head is still picked up", async () => {
  const a = device(server.url, 't');
  const key = { appName: 'chat', userId: 'alice', sessionId: 'same-ms' };
  await a.store.createSession(key);
  await say(a.store, 'same-ms', 'from the device');
  expect((await a.sync.syncNow()).lastError).toBeNull();
  await server.service.runExclusive({ appName: 'chat', userId: 'alice' }, 'same-ms', async () => {
    const session = await server.service.sessions.getSession(key);
    const head = session?.events.at(-1)?.timestamp as number;
    // A Runner's event created in the millisecond the device's last event was stamped with.
    await server.service.sessions.appendEvent({
      session: session as NonNullable<typeof session>,
      event: createEvent({
        invocationId: 'server-turn',
        author: 'assistant',
        timestamp: head,
        content: { role: 'model', parts: [{ text: 'same millisecond' }] },
      }),
    });
  });
  expect((await a.sync.syncNow()).lastError).toBeNull();
  expect(await textsOf(a.store, 'same-ms')).toEqual(['from the device', 'same millisecond']);
  await a.close();
}, 60_000);
