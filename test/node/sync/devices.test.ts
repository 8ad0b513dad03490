import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Device, device, say, textsOf } from '../../sync/devices.js';
import { type ServerProcess, startServer, TOKENS } from '../../sync/server-process.js';

let server: ServerProcess;
const open: Device[] = [];
const alice = (): Device => {
  const d = device(server.url, TOKENS.alice);
  open.push(d);
  return d;
};

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  for (const d of open) await d.close();
  await server?.stop();
});

describe('two devices', () => {
  it('a session written offline on one device arrives whole on the other', async () => {
    const a = alice();
    const b = alice();
    await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 's1', state: { topic: 'x' } });
    await say(a.store, 's1', 'hello', 'how are you');
    expect((await a.sync.syncNow()).lastError).toBeNull();
    expect((await b.sync.syncNow()).lastError).toBeNull();
    expect(await textsOf(b.store, 's1')).toEqual(['hello', 'how are you']);
    const got = await b.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's1' });
    expect(got?.state).toMatchObject({ topic: 'x', last: 'how are you' });
    expect(a.sync.status().pending).toBe(0);
  });

  it('both devices append to one session offline: the later pusher rebases its block behind the first', async () => {
    const a = alice();
    const b = alice();
    await a.store.createSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
    await a.sync.syncNow();
    await b.sync.syncNow();
    await say(a.store, 's2', 'a1', 'a2');
    await say(b.store, 's2', 'b1', 'b2');
    expect(b.sync.status().pending).toBe(0);
    await a.sync.syncNow();
    const status = await b.sync.syncNow();
    expect(status.lastError).toBeNull();
    expect(status.pending).toBe(0);
    await a.sync.syncNow();
    const order = ['a1', 'a2', 'b1', 'b2'];
    expect(await textsOf(a.store, 's2')).toEqual(order);
    expect(await textsOf(b.store, 's2')).toEqual(order);
    const stateA = await a.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
    const stateB = await b.store.getSession({ appName: 'chat', userId: 'alice', sessionId: 's2' });
    expect(stateA?.state.last).toBe('b2');
    expect(stateB?.state.last).toBe('b2');
  });
});
