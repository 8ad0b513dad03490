/**
 * Erasures across devices: an event erased on one device after the server has it leaves the
 * server's copies (ADK's own events table and the change log) and every other device's, search
 * included; an erase survives going offline and a reload; a push answered late does not bring
 * erased content back; the writes an erased event keeps are decided by the first copy erased, reach
 * every copy and cannot be forged; devices of a release before erasures keep syncing. Against the server in
 * this process (its ADK service and SQL are read directly), on libsql and on Postgres.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';
import { type Event, isErased, type Session } from '../../../src/index.js';
import { userPath } from '../../../src/sync/wire.js';
import { type Device, device, say, turn } from '../../sync/devices.js';
import { faultyNetwork } from '../../sync/faults.js';
import { type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';

vi.setConfig({ testTimeout: 60_000 });

const user = { appName: 'chat', userId: 'alice' };
const SECRET = 'my card number is 4111';
const bin = postgresBin();
// Postgres is required in CI (test/node/sync/postgres.test.ts fails without it); here it is one more driver.
const drivers = bin ? (['libsql', 'postgres'] as const) : (['libsql'] as const);

describe.each(drivers)('erasures synced, on %s', (driver) => {
  let server: RunningSyncServer;
  let postgres: Postgres | undefined;
  let dir: string;
  const open: Device[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sync-erasures-'));
    postgres = driver === 'postgres' ? await startPostgres(bin as string) : undefined;
    server = await startSyncServer({
      ...(postgres ? { url: postgres.url } : { file: join(dir, 'sync.db') }),
      port: 0,
      maxBodyBytes: 64 * 1024,
      authenticate: (token) => (token === 't' ? { userId: 'alice', appName: 'chat' } : undefined),
    });
  }, 120_000);
  afterAll(async () => {
    for (const d of open) await d.close();
    await server?.close();
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const alice = (options: Parameters<typeof device>[2] = {}): Device => {
    const d = device(server.url, 't', options);
    open.push(d);
    return d;
  };
  const synced = async (...devices: Device[]) => {
    for (const d of devices) expect((await d.sync.syncNow()).lastError).toBeNull();
  };
  /** Everything the server holds of a session, as text: its rows in ADK's events table and in the change log. */
  const serverText = async (sessionId: string) => {
    const sql = server.service.database.sql;
    return JSON.stringify([
      await sql('SELECT event_data FROM events WHERE session_id = ?', [sessionId]),
      await sql('SELECT data FROM sync_changes WHERE session_id = ?', [sessionId]),
    ]);
  };
  /** A session of three events on `a`, synced, the middle one saying `SECRET`; resolves its id. */
  const written = async (a: Device, sessionId: string): Promise<string> => {
    const session = await a.store.createSession({ ...user, sessionId });
    const secret = turn(SECRET, `${sessionId}-2`);
    await a.store.appendEvents({
      session,
      events: [turn('hello', `${sessionId}-1`), secret, turn('thanks', `${sessionId}-3`)],
    });
    await synced(a);
    return secret.id;
  };
  const eventsOf = async (d: Device, sessionId: string) =>
    (await d.store.getSession({ ...user, sessionId }))?.events ?? [];

  it('an erase on one device leaves ADK’s table, the change log and the other devices, search and memory included', async () => {
    const [a, b] = [alice(), alice()];
    const id = await written(a, 'erased-after-sync');
    await synced(b);
    expect(JSON.stringify(await eventsOf(b, 'erased-after-sync'))).toContain(SECRET);
    expect((await b.store.searchEvents({ ...user, query: 'card number' })).hits).toHaveLength(1);
    await b.store.memory.addSessionToMemory(
      (await b.store.getSession({ ...user, sessionId: 'erased-after-sync' })) as Session,
    );
    expect((await b.store.memory.searchMemory({ ...user, query: 'card number' })).memories).toHaveLength(1);

    expect(await serverText('erased-after-sync')).toContain(SECRET);
    await a.store.erase({ ...user, sessionId: 'erased-after-sync', eventIds: [id] });
    await synced(a, b);
    expect(await serverText('erased-after-sync')).not.toContain(SECRET);
    const adk = await server.service.sessions.getSession({ ...user, sessionId: 'erased-after-sync' });
    expect(adk?.events.map((e) => isErased(e as unknown as Event))).toEqual([false, true, false]);
    const mine = await eventsOf(a, 'erased-after-sync');
    // The same erased event everywhere, down to the time of its mark.
    expect(await eventsOf(b, 'erased-after-sync')).toEqual(mine);
    expect((await b.store.searchEvents({ ...user, query: 'card number' })).hits).toEqual([]);
    expect((await b.store.memory.searchMemory({ ...user, query: 'card number' })).memories).toEqual([]);
    const c = alice();
    await synced(c);
    expect(await eventsOf(c, 'erased-after-sync')).toEqual(mine);
    for (const d of [a, b]) expect(d.sync.status().pending).toBe(0);
  });

  it('an erase made offline is kept through a reload and reaches the server when back online', async () => {
    const net = faultyNetwork();
    const a = alice({ fetch: net.fetch });
    const id = await written(a, 'erased-offline');
    net.offline();
    await a.store.erase({ ...user, sessionId: 'erased-offline', eventIds: [id] });
    expect(await a.sync.syncNow()).toMatchObject({ phase: 'offline', pending: 1, sessions: { 'erased-offline': 1 } });
    await a.reload();
    net.online();
    await synced(a);
    expect(a.sync.status().pending).toBe(0);
    expect(await serverText('erased-offline')).not.toContain(SECRET);
  });

  it('an event erased while its push’s answer was lost stays erased, here and on the server', async () => {
    const net = faultyNetwork();
    const a = alice({ fetch: net.fetch });
    const session = await a.store.createSession({ ...user, sessionId: 'answer-lost' });
    await synced(a);
    const secret = turn(SECRET, 'al-1');
    await a.store.appendEvent({ session, event: secret });
    net.next('drop-answer', { method: 'POST', path: /\/events$/ });
    expect((await a.sync.syncNow()).lastError?.kind).toBe('network');
    // The server has it; this device does not know yet, and erases it as its own pending event.
    await a.store.erase({ ...user, sessionId: 'answer-lost', eventIds: [secret.id] });
    await synced(a);
    expect((await eventsOf(a, 'answer-lost')).map(isErased)).toEqual([true]);
    expect(await serverText('answer-lost')).not.toContain(SECRET);
  });

  it('…and when another device pushed after it, so the event comes back in a conflict', async () => {
    const net = faultyNetwork();
    const [a, b] = [alice({ fetch: net.fetch }), alice()];
    const session = await a.store.createSession({ ...user, sessionId: 'answer-lost-409' });
    await synced(a, b);
    const secret = turn(SECRET, 'al-2');
    await a.store.appendEvent({ session, event: secret });
    net.next('drop-answer', { method: 'POST', path: /\/events$/ });
    expect((await a.sync.syncNow()).lastError?.kind).toBe('network');
    await say(b.store, 'answer-lost-409', 'from b');
    await synced(b);
    await a.store.erase({ ...user, sessionId: 'answer-lost-409', eventIds: [secret.id] });
    await synced(a, b);
    for (const d of [a, b]) {
      expect(
        (await eventsOf(d, 'answer-lost-409')).map((e) => (isErased(e) ? 'erased' : e.content?.parts?.[0]?.text)),
      ).toEqual(['erased', 'from b']);
    }
    expect(await serverText('answer-lost-409')).not.toContain(SECRET);
  });

  it('an erasure sent twice (its answer lost) is logged once; erasing again changes nothing', async () => {
    const net = faultyNetwork();
    const netB = faultyNetwork();
    const [a, b] = [alice({ fetch: net.fetch }), alice({ fetch: netB.fetch })];
    const id = await written(a, 'erased-twice');
    await synced(b);
    await a.store.erase({ ...user, sessionId: 'erased-twice', eventIds: [id] });
    net.next('drop-answer', { method: 'POST', path: /\/erase$/ });
    expect((await a.sync.syncNow()).lastError?.kind).toBe('network');
    await synced(a, b);
    const logged = await server.service.database.sql(
      "SELECT seq FROM sync_changes WHERE kind = 'erased' AND session_id = ?",
      ['erased-twice'],
    );
    expect(logged).toHaveLength(1);
    // Sent twice (the lost answer's request and its retry); b applied it and sends nothing back.
    const before = await server.service.cursor(user);
    await synced(a, b);
    expect(await server.service.cursor(user)).toBe(before);
    expect(net.calls.filter((c) => c.endsWith('/erase'))).toHaveLength(2);
    expect(netB.calls.filter((c) => c.endsWith('/erase'))).toEqual([]);
  });

  it('one event erased on two devices, at different times, reads the same everywhere: the server’s first', async () => {
    const [a, b] = [alice(), alice()];
    const id = await written(a, 'erased-on-both');
    await synced(b);
    await a.store.erase({ ...user, sessionId: 'erased-on-both', eventIds: [id] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.store.erase({ ...user, sessionId: 'erased-on-both', eventIds: [id] });
    await synced(a, b, a);
    const mine = await eventsOf(a, 'erased-on-both');
    expect(await eventsOf(b, 'erased-on-both')).toEqual(mine);
    const c = alice();
    await synced(c);
    expect(await eventsOf(c, 'erased-on-both')).toEqual(mine);
  });

  const stateOf = async (d: Device, sessionId: string) => (await d.store.getSession({ ...user, sessionId }))?.state;
  const deltasOf = async (d: Device, sessionId: string) =>
    (await eventsOf(d, sessionId)).map((e) => e.actions?.stateDelta);
  /** The server's logged copy of event `id` (the change log's row, as a device pulling it gets it). */
  const loggedEvent = async (id: string): Promise<Event> => {
    const [row] = await server.service.database.sql(
      "SELECT data FROM sync_changes WHERE kind = 'event' AND event_id = ?",
      [id],
    );
    return JSON.parse(String(row?.data)) as Event;
  };

  it('a device that first pulls after an erasure folds the same state: the erased event keeps its writes in effect', async () => {
    const a = alice();
    const session = await a.store.createSession({ ...user, sessionId: 'fresh-after-erase' });
    const secret = turn(SECRET, 'fae-1', { topic: 'cards', draft: 'one', 'user:plan': 'gold' });
    const later = turn('later', 'fae-2', { draft: 'two' });
    await a.store.appendEvents({ session, events: [secret, later] });
    await synced(a);
    await a.store.erase({ ...user, sessionId: 'fresh-after-erase', eventIds: [secret.id] });
    await synced(a);
    const expected = { topic: 'cards', draft: 'two', 'user:plan': 'gold' };
    expect(await stateOf(a, 'fresh-after-erase')).toEqual(expected);
    // `draft` was written again since: the erased event does not keep it.
    expect((await loggedEvent(secret.id)).actions?.stateDelta).toEqual({ topic: 'cards', 'user:plan': 'gold' });
    const c = alice();
    await synced(c);
    expect(await stateOf(c, 'fresh-after-erase')).toEqual(expected);
    expect(await eventsOf(c, 'fresh-after-erase')).toEqual(await eventsOf(a, 'fresh-after-erase'));
  });

  it('an event erased before its push reaches the server and every device erased, its writes in effect kept', async () => {
    const a = alice();
    const session = await a.store.createSession({ ...user, sessionId: 'erased-before-push' });
    await synced(a);
    const secret = turn(SECRET, 'ebp-1', { topic: 'cards', step: 1 });
    await a.store.appendEvents({ session, events: [secret, turn('next', 'ebp-2', { step: 2 })] });
    await a.store.erase({ ...user, sessionId: 'erased-before-push', eventIds: [secret.id] });
    await synced(a);
    expect(await serverText('erased-before-push')).not.toContain(SECRET);
    const adk = await server.service.sessions.getSession({ ...user, sessionId: 'erased-before-push' });
    expect(adk?.state).toMatchObject({ topic: 'cards', step: 2 });
    expect(adk?.events[0]?.actions?.stateDelta).toEqual({ topic: 'cards' });
    const c = alice();
    await synced(c);
    expect(await stateOf(c, 'erased-before-push')).toMatchObject({ topic: 'cards', step: 2 });
    expect(await stateOf(c, 'erased-before-push')).toEqual(await stateOf(a, 'erased-before-push'));
    expect(await eventsOf(c, 'erased-before-push')).toEqual(await eventsOf(a, 'erased-before-push'));
  });

  it('one event erased on two devices keeping different writes reads the same everywhere: the server’s first form', async () => {
    const [a, b] = [alice(), alice()];
    const session = await a.store.createSession({ ...user, sessionId: 'kept-differently' });
    const secret = turn(SECRET, 'kd-1', { mood: 'calm', topic: 'cards' });
    await a.store.appendEvent({ session, event: secret });
    await synced(a, b);
    // On b, `mood` is written again before the erase: b's erased copy drops it, a's keeps it.
    await say(b.store, 'kept-differently', 'busy now');
    const bs = (await b.store.getSession({ ...user, sessionId: 'kept-differently' })) as Session;
    await b.store.appendEvent({ session: bs, event: turn('mood', 'kd-3', { mood: 'busy' }) });
    await a.store.erase({ ...user, sessionId: 'kept-differently', eventIds: [secret.id] });
    await b.store.erase({ ...user, sessionId: 'kept-differently', eventIds: [secret.id] });
    expect((await deltasOf(a, 'kept-differently'))[0]).toEqual({ mood: 'calm', topic: 'cards' });
    expect((await deltasOf(b, 'kept-differently'))[0]).toEqual({ topic: 'cards' });
    // b's erasure reaches the server first; a's finds the event erased and takes b's form.
    await synced(b, a, b);
    const mine = await eventsOf(b, 'kept-differently');
    expect(mine[0]?.actions?.stateDelta).toEqual({ topic: 'cards' });
    expect(await eventsOf(a, 'kept-differently')).toEqual(mine);
    const c = alice();
    await synced(c);
    expect(await eventsOf(c, 'kept-differently')).toEqual(mine);
    const state = await stateOf(b, 'kept-differently');
    expect(state).toMatchObject({ mood: 'busy', topic: 'cards' });
    for (const d of [a, c]) expect(await stateOf(d, 'kept-differently')).toEqual(state);
  });

  it('a forged erasure cannot write state: the server keeps only what the original wrote, with its value', async () => {
    const a = alice();
    const session = await a.store.createSession({ ...user, sessionId: 'forged' });
    const secret = turn(SECRET, 'fg-1', { topic: 'cards', level: 1 });
    const plain = turn('plain', 'fg-2', { note: 'n' });
    const old = turn('old device', 'fg-3', { era: 'old' });
    await a.store.appendEvents({ session, events: [secret, plain, old] });
    await synced(a);
    const adkBefore = await server.service.sessions.getSession({ ...user, sessionId: 'forged' });
    const stateBefore = await stateOf(a, 'forged');
    const forged = { topic: 'cards', level: 99, injected: true, 'user:role': 'admin', 'app:flag': 1 };
    // As text: a `__proto__` key the original never wrote, and the third erasure as a device of an
    // earlier release sends it, without a delta.
    const body = `{"erasures":[${JSON.stringify({ id: secret.id, at: 5, stateDelta: forged })},${JSON.stringify({ id: plain.id, at: 5 }).slice(0, -1)},"stateDelta":{"__proto__":{"polluted":1},"note":"n"}},${JSON.stringify({ id: old.id, at: 5 })}]}`;
    const response = await fetch(`${server.url}${userPath(user.appName, user.userId)}/sessions/forged/erase`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    // Only what the original wrote with that value: `level` (another value) and every other key go.
    expect((await loggedEvent(secret.id)).actions?.stateDelta).toEqual({ topic: 'cards' });
    expect((await loggedEvent(plain.id)).actions?.stateDelta).toEqual({ note: 'n' });
    expect((await loggedEvent(old.id)).actions?.stateDelta).toEqual({});
    const adk = await server.service.sessions.getSession({ ...user, sessionId: 'forged' });
    expect(adk?.state).toEqual(adkBefore?.state);
    expect(adk?.events.map((e) => e.actions?.stateDelta)).toEqual([{ topic: 'cards' }, { note: 'n' }, {}]);
    const c = alice();
    await synced(a, c);
    // The device that held the events takes the server's form and keeps its state as it was.
    expect(await stateOf(a, 'forged')).toEqual(stateBefore);
    for (const d of [a, c]) {
      expect(await deltasOf(d, 'forged')).toEqual([{ topic: 'cards' }, { note: 'n' }, {}]);
      const state = await stateOf(d, 'forged');
      for (const key of ['injected', 'user:role', 'app:flag', '__proto__'])
        expect(Object.hasOwn(state ?? {}, key)).toBe(false);
      expect(state?.level).not.toBe(99);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('erasures whose kept writes outgrow one request go in several, each under the server’s body cap', async () => {
    const net = faultyNetwork();
    const a = alice({ fetch: net.fetch });
    const session = await a.store.createSession({ ...user, sessionId: 'big-kept' });
    await synced(a);
    // Ten writes of 10 KB each, all still in effect: 100 KB of kept deltas against a 64 KB cap.
    const events = Array.from({ length: 10 }, (_, i) =>
      turn(`${SECRET} ${i}`, `bk-${i}`, { [`k${i}`]: 'v'.repeat(10_000) }),
    );
    await a.store.appendEvents({ session, events });
    await synced(a);
    await a.store.erase({ ...user, sessionId: 'big-kept', eventIds: events.map((e) => e.id) });
    const status = await a.sync.syncNow();
    expect(status.lastError).toBeNull();
    expect(status.refused).toEqual({});
    expect(status.pending).toBe(0);
    expect(net.calls.filter((c) => c.endsWith('/erase')).length).toBeGreaterThan(1);
    expect(await serverText('big-kept')).not.toContain(SECRET);
    const c = alice();
    await synced(c);
    expect(await stateOf(c, 'big-kept')).toEqual(await stateOf(a, 'big-kept'));
  });

  it('limit (docs/sync.md): a write kept out because a pending event overwrote it stays out when a conflict drops that event', async () => {
    const a = alice();
    const b = alice({ conflict: () => 'drop' });
    const session = await a.store.createSession({ ...user, sessionId: 'dropped-overwrite' });
    await synced(a);
    const secret = turn(SECRET, 'do-1', { k: 'v' });
    await a.store.appendEvent({ session, event: secret });
    await synced(a, b);
    const bs = (await b.store.getSession({ ...user, sessionId: 'dropped-overwrite' })) as Session;
    await b.store.appendEvent({ session: bs, event: turn('pending', 'do-2', { k: 'w' }) });
    // On b, `k` is no longer in effect: the erased event keeps none of its writes.
    await b.store.erase({ ...user, sessionId: 'dropped-overwrite', eventIds: [secret.id] });
    await say(a.store, 'dropped-overwrite', 'from a');
    await synced(a, b, a);
    const c = alice();
    await synced(c);
    // b's pending event was dropped: the devices that held the event keep `k`, one pulling later has none.
    // (The session's own keys: `user:` keys other tests of this user wrote show in its state too.)
    const own = async (d: typeof a) =>
      Object.fromEntries(
        Object.entries((await stateOf(d, 'dropped-overwrite')) ?? {}).filter(([k]) => !k.includes(':')),
      );
    expect(await own(a)).toEqual({ k: 'v', last: 'from a' });
    expect(await own(b)).toEqual({ k: 'v', last: 'from a' });
    expect(await own(c)).toEqual({ last: 'from a' });
  });

  it('a device of a release before erasures passes over them and goes on syncing; its copy keeps the content', async () => {
    const a = alice();
    // Its pulls do not ask for erasures, as an older release's do not.
    const old = alice({
      fetch: (input, init) => fetch(String(input).replace(/&erasures=1$/, ''), init),
    });
    const id = await written(a, 'older-device');
    await synced(old);
    await a.store.erase({ ...user, sessionId: 'older-device', eventIds: [id] });
    await synced(a, old);
    await say(a.store, 'older-device', 'after the erase');
    await synced(a, old);
    const texts = (await eventsOf(old, 'older-device')).map((e) => e.content?.parts?.[0]?.text);
    expect(texts).toEqual(['hello', SECRET, 'thanks', 'after the erase']);
  });

  it('a server of a release before erasures: the session is named in `refused`, and everything else syncs', async () => {
    const a = alice({
      // Such a server has no erase route: its framework answers 404 with a page of its own.
      fetch: (input, init) =>
        String(input).endsWith('/erase')
          ? Promise.resolve(new Response('404 Not Found', { status: 404 }))
          : fetch(input, init),
    });
    const id = await written(a, 'older-server');
    await a.store.erase({ ...user, sessionId: 'older-server', eventIds: [id] });
    await say(a.store, 'older-server', 'still synced');
    const status = await a.sync.syncNow();
    expect(status.lastError).toBeNull();
    expect(status.refused['older-server']).toMatchObject({
      status: 404,
      message: expect.stringMatching(/does not take erasures/),
    });
    expect(status.pending).toBe(1);
    expect(await serverText('older-server')).toContain(SECRET);
    const adk = await server.service.sessions.getSession({ ...user, sessionId: 'older-server' });
    expect(adk?.events.map((e) => e.content?.parts?.[0]?.text).at(-1)).toBe('still synced');
  });

  it('an erasure goes even while the session’s newer events are refused (one larger than the server takes)', async () => {
    const a = alice();
    const id = await written(a, 'refused-events');
    await say(a.store, 'refused-events', 'x'.repeat(80 * 1024));
    await a.store.erase({ ...user, sessionId: 'refused-events', eventIds: [id] });
    const status = await a.sync.syncNow();
    expect(status.lastError).toBeNull();
    expect(status.refused['refused-events']?.status).toBe(413);
    expect(await serverText('refused-events')).not.toContain(SECRET);
  });
});
