/**
 * Export and import of sessions as ADK-compatible JSON, over fake-indexeddb:
 * in-thread, and through the worker client over a MessageChannel.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, exposeEngine } from '../../src/host/expose.js';
import { StoreEngine } from '../../src/host/store-engine.js';
import {
  AlreadyExistsError,
  connectSessionStore,
  EXPORT_FORMAT,
  type ExportProgress,
  exportSessions,
  exportSessionsToBlob,
  type ImportProgress,
  IndexedDbSessionService,
  InvalidInputError,
  importSessions,
  type Session,
  type SessionStoreClient,
  StaleSessionError,
  type StoreChange,
} from '../../src/index.js';
import { event, exportedSessions, exportText, seed } from '../transfer/fixture.js';

let n = 0;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A fresh database; `open()` gives another in-thread instance over it, as another tab would. */
function database() {
  const indexedDB = new IDBFactory();
  const dbName = `transfer-${n++}`;
  const open = (): IndexedDbSessionService => {
    const store = new IndexedDbSessionService({ indexedDB, dbName });
    closers.push(() => store.close());
    return store;
  };
  const client = (): SessionStoreClient => {
    const { port1, port2 } = new MessageChannel();
    exposeEngine(new StoreEngine({ indexedDB, dbName }), port1);
    const c = connectSessionStore(port2, { dbName });
    closers.push(() => c.close());
    return c;
  };
  return { indexedDB, dbName, open, client };
}

async function seeded(): Promise<IndexedDbSessionService> {
  const store = database().open();
  await seed(store);
  return store;
}

function textStream(text: string, chunkSize = 64): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + chunkSize));
        at += chunkSize;
      }
    },
  });
}

/** `count` small sessions for one user, as a bare array. */
function manySessions(count: number, eventsEach = 2): Session[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    appName: 'bulk',
    userId: 'u',
    state: { i },
    events: Array.from({ length: eventsEach }, (_, j) => event(`m${i}-${j}`, { i })),
    lastUpdateTime: 1_900_000_000_000 + i,
  }));
}

describe('exportSessions', () => {
  it("writes an app's sessions oldest first, each whole: merged state and every event in append order", async () => {
    const store = await seeded();
    const doc = JSON.parse(await exportText(store, { appName: 'chat' }));
    expect(doc).toMatchObject({ format: 'adk-sessions', version: 1, exportedAt: 0 });
    const listed = await store.listSessions({ appName: 'chat' });
    expect(doc.sessions.map((s: Session) => `${s.userId}/${s.id}`)).toEqual(
      listed.sessions.map((s) => `${s.userId}/${s.id}`),
    );
    expect(doc.sessions).toHaveLength(4);
    for (const exported of doc.sessions as Session[]) {
      const stored = await store.getSession({ appName: 'chat', userId: exported.userId, sessionId: exported.id });
      expect(exported).toEqual(stored);
      expect(Object.keys(exported)).toEqual(['id', 'appName', 'userId', 'state', 'events', 'lastUpdateTime']);
    }
    const s2 = doc.sessions.find((s: Session) => s.id === 's2');
    expect(s2.events.map((e: { id: string }) => e.id)).toEqual(['a2-1u', 'a2-2a', 'a2-3a']);
  });

  it('covers every app (by name) when appName is omitted, and one user with userId', async () => {
    const store = await seeded();
    const all = JSON.parse(await exportText(store)).sessions as Session[];
    expect(all.map((s) => `${s.appName}/${s.userId}/${s.id}`)).toEqual([
      'aardvark/cy/c1',
      ...(await store.listSessions({ appName: 'chat' })).sessions.map((s) => `chat/${s.userId}/${s.id}`),
    ]);
    expect(await store.listSessionKeys({ appName: 'chat', userId: 'bob' })).toEqual([
      { appName: 'chat', userId: 'bob', sessionId: 'empty' },
      { appName: 'chat', userId: 'bob', sessionId: 's1' },
    ]);
    await expect(store.listSessionKeys({ userId: 'bob' })).rejects.toBeInstanceOf(InvalidInputError);
    const bob = JSON.parse(await exportText(store, { appName: 'chat', userId: 'bob' })).sessions as Session[];
    expect(bob.map((s) => s.id).sort()).toEqual(['empty', 's1']);
    expect(bob.every((s) => s.userId === 'bob')).toBe(true);
  });

  it('never writes temp: keys, in state or in event deltas', async () => {
    const text = await exportText(await seeded());
    expect(text).not.toContain('temp:');
    expect(text).toContain('"user:name":"Ada"');
  });

  it('writes one session per line and an empty sessions array for an empty store', async () => {
    const store = await seeded();
    const lines = (await exportText(store, { appName: 'chat' })).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(await exportText(database().open()))).toEqual({
      format: EXPORT_FORMAT,
      version: 1,
      exportedAt: 0,
      sessions: [],
    });
  });

  it('reports progress after listing and after each session, reaching the totals', async () => {
    const store = await seeded();
    const reports: ExportProgress[] = [];
    await new Response(exportSessions(store, { onProgress: (p) => reports.push(p) })).text();
    expect(reports[0]).toEqual({ sessions: 0, totalSessions: 5, events: 0 });
    expect(reports.map((r) => r.sessions)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(reports.at(-1)).toEqual({ sessions: 5, totalSessions: 5, events: 8 });
  });

  it('leaves out a session deleted while the export runs, and says so in totalSessions', async () => {
    const store = await seeded();
    let deleted = false;
    const reports: ExportProgress[] = [];
    const stream = exportSessions(store, {
      appName: 'chat',
      onProgress: (p) => {
        reports.push(p);
        if (p.sessions === 1 && !deleted) {
          deleted = true;
          void store.deleteSession({ appName: 'chat', userId: 'bob', sessionId: 's1' });
        }
      },
    });
    const doc = JSON.parse(await new Response(stream).text());
    expect(doc.sessions.map((s: Session) => `${s.userId}/${s.id}`)).toEqual(['bob/empty', 'ada/s2', 'ada/s1']);
    expect(reports.at(-1)).toMatchObject({ sessions: 3, totalSessions: 3 });
  });

  it('errors the stream with the reason when aborted', async () => {
    const store = await seeded();
    const controller = new AbortController();
    const stream = exportSessions(store, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.sessions === 2) controller.abort();
      },
    });
    await expect(new Response(stream).text()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects bad options at once with InvalidInputError', () => {
    const store = database().open();
    expect(() => exportSessions(store, { userId: 'u' })).toThrow(InvalidInputError);
    expect(() => exportSessions(store, { userId: 'u' })).toThrow(/userId.*appName/);
    expect(() => exportSessions(store, { appName: '' })).toThrow(/appName/);
  });

  it('gives a Blob of type application/json holding the same document', async () => {
    const store = await seeded();
    const blob = await exportSessionsToBlob(store, { exportedAt: 0 });
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe(await exportText(store));
  });
});

describe('importSessions', () => {
  it('round-trips: export, import into an empty database, export again gives the same bytes', async () => {
    const source = await seeded();
    const text = await exportText(source);
    const target = database().open();
    const result = await importSessions(target, text);
    expect(result).toEqual({ sessions: 5, events: 8, skipped: 0 });
    expect(await exportText(target)).toBe(text);
    expect(await target.getAppState({ appName: 'chat' })).toEqual(await source.getAppState({ appName: 'chat' }));
    expect(await target.getUserState({ appName: 'chat', userId: 'ada' })).toEqual(
      await source.getUserState({ appName: 'chat', userId: 'ada' }),
    );
    const listed = await target.listSessions({ appName: 'chat', limit: 2, page: 2 });
    expect(listed.totalItems).toBe(4);
    expect((await target.listSessions({ appName: 'chat', userId: 'bob' })).totalItems).toBe(2);
  });

  it('keeps __proto__, constructor and prototype as plain keys in every scope', async () => {
    const target = database().open();
    await importSessions(target, await exportText(await seeded()));
    const s1 = await target.getSession({ appName: 'chat', userId: 'ada', sessionId: 's1' });
    expect(Object.getPrototypeOf(s1?.state)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(s1?.state, '__proto__')?.value).toEqual({ polluted: true });
    expect(s1?.state['user:__proto__']).toEqual({ x: 1 });
    expect(s1?.state['app:constructor']).toBe(2);
    expect(Object.keys(await target.getUserState({ appName: 'chat', userId: 'ada' }))).toContain('__proto__');
    const delta = s1?.events[2]?.actions?.stateDelta as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(delta, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives sessions that work: getSession, appendEvent with every scope, stale copies rejected', async () => {
    const db = database();
    const store = db.open();
    await importSessions(store, await exportText(await seeded()));
    const session = await store.getSession({ appName: 'chat', userId: 'ada', sessionId: 's2' });
    expect(session?.events).toHaveLength(3);
    const recent = await store.getSession({
      appName: 'chat',
      userId: 'ada',
      sessionId: 's2',
      config: { numRecentEvents: 2 },
    });
    expect(recent?.events.map((e) => e.id)).toEqual(['a2-2a', 'a2-3a']);
    await store.appendEvent({ session: session as Session, event: event('new-1a', { step: 3, 'user:seen': true }) });
    const reloaded = await db.open().getSession({ appName: 'chat', userId: 'ada', sessionId: 's2' });
    expect(reloaded?.events.map((e) => e.id)).toEqual(['a2-1u', 'a2-2a', 'a2-3a', 'new-1a']);
    expect(reloaded?.state).toMatchObject({ step: 3, 'user:seen': true, 'user:name': 'Ada' });
    await expect(store.appendEvent({ session: recent as Session, event: event('late-1a', {}) })).rejects.toBeInstanceOf(
      StaleSessionError,
    );
    await expect(
      store.appendEvent({ session: session as Session, event: event('a2-1u', { step: 9 }) }),
    ).resolves.toBeDefined();
    const replaced = await store.getSession({ appName: 'chat', userId: 'ada', sessionId: 's2' });
    expect(replaced?.events.map((e) => e.id)).toEqual(['a2-1u', 'a2-2a', 'a2-3a', 'new-1a']);
  });

  it('accepts a bare array of sessions and a single session object', async () => {
    const sessions = await exportedSessions(await seeded());
    const fromArray = database().open();
    expect(await importSessions(fromArray, JSON.stringify(sessions))).toMatchObject({ sessions: 5 });
    const fromOne = database().open();
    const one = sessions[3] as Record<string, unknown>;
    expect(await importSessions(fromOne, JSON.stringify(one))).toEqual({ sessions: 1, events: 3, skipped: 0 });
    const only = await fromOne.listSessionKeys();
    expect(only).toEqual([{ appName: one.appName, userId: one.userId, sessionId: one.id }]);
  });

  it('reads a Blob and a byte stream as well as a string, a byte-order mark included', async () => {
    const text = await exportText(await seeded());
    const fromBlob = database().open();
    await importSessions(fromBlob, new Blob([text]));
    expect(await exportText(fromBlob)).toBe(text);
    const fromStream = database().open();
    await importSessions(fromStream, textStream(`\uFEFF${text}`, 100));
    expect(await exportText(fromStream)).toBe(text);
  });

  it('splits merged state by prefix: app: and user: go to the shared scopes, temp: nowhere', async () => {
    const store = database().open();
    await importSessions(
      store,
      JSON.stringify({
        id: 'x',
        appName: 'a',
        userId: 'u',
        state: { own: 1, 'app:shared': 2, 'user:mine': 3, 'temp:gone': 4 },
        events: [event('x-1u', { own: 1, 'temp:gone': 4 })],
        lastUpdateTime: 5,
      }),
    );
    expect(await store.getAppState({ appName: 'a' })).toEqual({ shared: 2 });
    expect(await store.getUserState({ appName: 'a', userId: 'u' })).toEqual({ mine: 3 });
    const s = await store.getSession({ appName: 'a', userId: 'u', sessionId: 'x' });
    expect(s?.state).toEqual({ own: 1, 'app:shared': 2, 'user:mine': 3 });
    expect(s?.events[0]?.actions?.stateDelta).toEqual({ own: 1 });
    expect(s?.lastUpdateTime).toBe(5);
  });

  it('keeps users apart whose app and user ids would join to the same string (a \\0 inside an id)', async () => {
    const store = database().open();
    await importSessions(
      store,
      JSON.stringify([
        { id: 's1', appName: 'x\u0000y', userId: 'z', state: { 'user:who': 'first' }, events: [], lastUpdateTime: 1 },
        { id: 's2', appName: 'x', userId: 'y\u0000z', state: { 'user:who': 'second' }, events: [], lastUpdateTime: 2 },
      ]),
    );
    expect(await store.getUserState({ appName: 'x\u0000y', userId: 'z' })).toEqual({ who: 'first' });
    expect(await store.getUserState({ appName: 'x', userId: 'y\u0000z' })).toEqual({ who: 'second' });
    expect(await store.listUsers({ appName: 'x\u0000y' })).toEqual([
      { appName: 'x\u0000y', userId: 'z', sessionCount: 1 },
    ]);
    expect(await store.listUsers({ appName: 'x' })).toEqual([{ appName: 'x', userId: 'y\u0000z', sessionCount: 1 }]);
  });

  it('merges imported app and user values over stored ones, keeping keys the file does not have', async () => {
    const store = database().open();
    await store.createSession({ appName: 'a', userId: 'u', state: { 'app:keep': 1, 'app:over': 1, 'user:k': 1 } });
    await importSessions(
      store,
      JSON.stringify([
        { id: 'x', appName: 'a', userId: 'u', state: { 'app:over': 2, 'user:new': 2 }, events: [], lastUpdateTime: 1 },
      ]),
    );
    expect(await store.getAppState({ appName: 'a' })).toEqual({ keep: 1, over: 2 });
    expect(await store.getUserState({ appName: 'a', userId: 'u' })).toEqual({ k: 1, new: 2 });
  });

  it('writes a batch larger than one chunk of requests whole, every event in order', async () => {
    const store = database().open();
    const sessions = manySessions(30, 200);
    expect(await importSessions(store, JSON.stringify(sessions))).toEqual({ sessions: 30, events: 6000, skipped: 0 });
    expect(await store.listSessionKeys({ appName: 'bulk' })).toHaveLength(30);
    for (const i of [0, 14, 29]) {
      const stored = await store.getSession({ appName: 'bulk', userId: 'u', sessionId: `m${i}` });
      expect(stored?.events).toEqual(sessions[i]?.events);
    }
    // 6,000 events through fake-indexeddb: seconds, past the node project's 5 s beside other files on 2 cores.
  }, 30_000);

  it('tells subscribers about each imported session', async () => {
    const store = database().open();
    const heard: StoreChange[] = [];
    store.subscribe({ appName: 'chat' }, (change) => heard.push(change));
    await importSessions(store, await exportText(await seeded(), { appName: 'chat' }));
    await expect.poll(() => heard.length).toBe(4);
    expect(heard.every((c) => c.type === 'created' && c.revision === 0)).toBe(true);
  });
});

describe('importSessions rejects a bad file, naming the place, and changes nothing', () => {
  /** Each case turns a good export (as parsed sessions) into the text of a bad file. */
  const cases: [string, (sessions: Record<string, unknown>[], text: string) => string | Blob, RegExp][] = [
    ['text that is not JSON', () => 'sessions, please', /file: is not valid JSON/],
    ['truncated JSON', (_, text) => text.slice(0, Math.floor(text.length * 0.7)), /file: is not valid JSON/],
    [
      'bytes that are not UTF-8',
      (_, text) => new Blob([text.slice(0, 40), new Uint8Array([0xff, 0xfe, 0xfd])]),
      /not UTF-8/,
    ],
    ['a number', () => '42', /file: must be an export document/],
    [
      'a wrong format tag',
      (sessions) => JSON.stringify({ format: 'adk-session', version: 1, sessions }),
      /importSessions: format: must be "adk-sessions"/,
    ],
    ['a newer version', (sessions) => JSON.stringify({ format: EXPORT_FORMAT, version: 2, sessions }), /version/],
    [
      'sessions that are not an array',
      () => JSON.stringify({ format: EXPORT_FORMAT, version: 1, sessions: {} }),
      /sessions/,
    ],
    [
      'an event without id',
      (sessions) => {
        delete (sessions[2]?.events as Record<string, unknown>[])[0]?.id;
        return JSON.stringify({ format: EXPORT_FORMAT, version: 1, sessions });
      },
      /importSessions: sessions\[2\]\.events\[0\]\.id: /,
    ],
    [
      'a string timestamp',
      (sessions) => {
        const e = (sessions[3]?.events as Record<string, unknown>[])[2] as Record<string, unknown>;
        e.timestamp = '2024-05-01T00:00:00Z';
        return JSON.stringify(sessions);
      },
      /importSessions: sessions\[3\]\.events\[2\]\.timestamp: /,
    ],
    [
      'a huge nesting in a state delta',
      (sessions) => {
        const events = sessions[2]?.events as { actions: { stateDelta: Record<string, unknown> } }[];
        (events[1] as (typeof events)[number]).actions.stateDelta.deep = 'HERE';
        const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
        return JSON.stringify(sessions).replace('"HERE"', deep);
      },
      /importSessions: sessions\[2\]\.events\[1\]\.actions\.stateDelta\.deep(\[0\])+: is nested deeper than 64 levels/,
    ],
    [
      'a state that is not an object',
      (sessions) => {
        (sessions[3] as Record<string, unknown>).state = [1, 2];
        return JSON.stringify(sessions);
      },
      /sessions\[3\]\.state: /,
    ],
    [
      'an empty appName',
      (sessions) => {
        (sessions[4] as Record<string, unknown>).appName = '';
        return JSON.stringify(sessions);
      },
      /sessions\[4\]\.appName: must not be empty/,
    ],
    [
      'a negative lastUpdateTime',
      (sessions) => {
        (sessions[0] as Record<string, unknown>).lastUpdateTime = -1;
        return JSON.stringify(sessions);
      },
      /sessions\[0\]\.lastUpdateTime: must not be negative/,
    ],
    [
      'the same session twice',
      (sessions) => JSON.stringify([...sessions, sessions[3]]),
      /sessions\[5\]\.id: session "s1" of app "chat" and user "ada" is also sessions\[3\]/,
    ],
    [
      'the same event id twice in a session',
      (sessions) => {
        const events = sessions[3]?.events as Record<string, unknown>[];
        (events[1] as Record<string, unknown>).id = events[0]?.id;
        return JSON.stringify(sessions);
      },
      /sessions\[3\]\.events\[1\]\.id: event "a1-1u" is also events\[0\]/,
    ],
  ];

  for (const [what, spoil, message] of cases) {
    it(`rejects ${what}`, async () => {
      const source = await seeded();
      const file = spoil(await exportedSessions(source), await exportText(source));
      // Every session of the file is new to the target, so a partial write would show.
      const target = database().open();
      await target.createSession({
        appName: 'chat',
        userId: 'z',
        sessionId: 'untouched',
        state: { 'app:greeting': 'yo' },
      });
      const before = await exportText(target);
      const attempt = importSessions(target, file);
      await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
      await expect(attempt).rejects.toThrow(message);
      expect(await exportText(target)).toBe(before);
      expect(await target.getAppState({ appName: 'chat' })).toEqual({ greeting: 'yo' });
    });
  }

  it('rejects a source that is not a string, Blob or stream, and bad options', async () => {
    const store = database().open();
    await expect(importSessions(store, 42 as never)).rejects.toThrow(/source: must be a Blob/);
    await expect(importSessions(store, '[]', { onConflict: 'merge' as never })).rejects.toThrow(/onConflict/);
  });

  it('has the worker host validate again: a batch that skipped the page-side checks is refused', async () => {
    const { indexedDB, dbName } = database();
    const engine = new StoreEngine({ indexedDB, dbName });
    closers.push(() => engine.close());
    const host = createHost(() => engine);
    await host.hello({});
    const bad = [
      { id: 's', appName: 'a', userId: 'u', state: {}, events: [{ id: 'e', timestamp: 'soon' }], lastUpdateTime: 1 },
    ];
    const answer = await host.importSessions({ sessions: bad, onConflict: 'error' } as never);
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(answer.ok ? '' : answer.error.message).toMatch(/sessions\[0\]\.events\[0\]\.timestamp/);
    const notArray = await host.importSessions({ sessions: 'all', onConflict: 'error' } as never);
    expect(notArray).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const badPolicy = await host.importSessions({ sessions: [], onConflict: 'merge' } as never);
    expect(badPolicy).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await engine.listSessionKeys({})).toEqual([]);
    expect(await host.listSessionKeys({ userId: 'u' } as never)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('writes nothing when the transaction fails late (the engine trusts its input; IndexedDB refuses it)', async () => {
    const { indexedDB, dbName } = database();
    const engine = new StoreEngine({ indexedDB, dbName });
    closers.push(() => engine.close());
    // 6,000 events: written in several chunks of requests, the transaction waiting between them.
    const sessions = manySessions(30, 200);
    // Unvalidated: the last session repeats an event id, which the unique index refuses after the rest is written.
    (sessions[29]?.events[1] as { id: string }).id = sessions[29]?.events[0]?.id as string;
    await expect(engine.importSessions({ sessions, onConflict: 'error' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await engine.listSessionKeys({})).toEqual([]);
    expect(await engine.getAppState({ appName: 'bulk' })).toEqual({});
    // As above: 6,000 events through fake-indexeddb, then the abort.
  }, 30_000);
});

describe('importSessions on a conflict', () => {
  async function conflicted() {
    const store = database().open();
    const kept = await store.createSession({ appName: 'bulk', userId: 'u', sessionId: 'm1', state: { mine: true } });
    await store.appendEvent({ session: kept, event: event('kept-1u', { 'user:who': 'stored' }) });
    const file = JSON.stringify(manySessions(3).map((s) => ({ ...s, state: { ...s.state, 'user:who': 'imported' } })));
    return { store, kept, file };
  }

  it("'error' (the default) rejects with AlreadyExistsError and imports none of the file", async () => {
    const { store, file } = await conflicted();
    const before = await exportText(store);
    const attempt = importSessions(store, file);
    await expect(attempt).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(attempt).rejects.toThrow(/sessions\[1\]: Session with id m1 already exists\. .*nothing was imported/);
    expect(await exportText(store)).toBe(before);
  });

  it("'skip' keeps the stored session untouched and imports the rest", async () => {
    const { store, file } = await conflicted();
    const before = await store.getSession({ appName: 'bulk', userId: 'u', sessionId: 'm1' });
    expect(await importSessions(store, file, { onConflict: 'skip' })).toEqual({ sessions: 2, events: 4, skipped: 1 });
    expect(await store.getSession({ appName: 'bulk', userId: 'u', sessionId: 'm1' })).toEqual({
      ...before,
      state: { ...before?.state, 'user:who': 'imported' },
    });
    expect((await store.listSessions({ appName: 'bulk', userId: 'u' })).totalItems).toBe(3);
  });

  it("'replace' swaps in the imported session whole; a copy of the old one is stale", async () => {
    const { store, kept, file } = await conflicted();
    expect(await importSessions(store, file, { onConflict: 'replace' })).toEqual({
      sessions: 3,
      events: 6,
      skipped: 0,
    });
    const now = await store.getSession({ appName: 'bulk', userId: 'u', sessionId: 'm1' });
    expect(now?.events.map((e) => e.id)).toEqual(['m1-0', 'm1-1']);
    expect(now?.state).toEqual({ i: 1, 'user:who': 'imported' });
    expect((await store.listSessions({ appName: 'bulk' })).totalItems).toBe(3);
    await expect(store.appendEvent({ session: kept, event: event('late-1u', {}) })).rejects.toBeInstanceOf(
      StaleSessionError,
    );
  });
});

describe('import progress and abort', () => {
  it('reports bytes up to the size, then sessions written up to the total once committed', async () => {
    const store = database().open();
    const text = JSON.stringify(manySessions(250, 1));
    const reports: ImportProgress[] = [];
    let committedAtLastReport = -1;
    await importSessions(store, new Blob([text]), {
      onProgress: (p) => {
        reports.push(p);
        if (p.sessions === p.totalSessions) {
          void store.listSessionKeys({ appName: 'bulk' }).then((keys) => {
            committedAtLastReport = keys.length;
          });
        }
      },
    });
    const size = new TextEncoder().encode(text).length;
    expect(reports.every((r) => r.totalBytes === size)).toBe(true);
    expect(reports.find((r) => r.totalSessions !== undefined)).toMatchObject({ bytes: size, sessions: 0 });
    const written = reports.map((r) => r.sessions);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect(written.filter((w) => w > 0 && w < 250).length).toBeGreaterThan(10);
    expect(reports.at(-1)).toEqual({ bytes: size, totalBytes: size, sessions: 250, totalSessions: 250 });
    await expect.poll(() => committedAtLastReport).toBe(250);
  });

  it('reports totalBytes undefined while reading a stream, then the bytes read', async () => {
    const store = database().open();
    const text = JSON.stringify(manySessions(3));
    const size = new TextEncoder().encode(text).length;
    const reports: ImportProgress[] = [];
    await importSessions(store, textStream(text, 200), { onProgress: (p) => reports.push(p) });
    expect(reports[0]).toMatchObject({ bytes: 200, totalBytes: undefined, totalSessions: undefined });
    expect(reports.at(-1)).toEqual({ bytes: size, totalBytes: size, sessions: 3, totalSessions: 3 });
  });

  it('rejects with the reason and imports nothing when aborted before, during reading or after parsing', async () => {
    const store = database().open();
    const text = JSON.stringify(manySessions(20));

    const early = AbortSignal.abort();
    await expect(importSessions(store, text, { signal: early })).rejects.toMatchObject({ name: 'AbortError' });

    const reading = new AbortController();
    let cancelled = false;
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 100));
      },
      cancel() {
        cancelled = true;
      },
    });
    const waiting = importSessions(store, stream, {
      signal: reading.signal,
      onProgress: () => reading.abort(),
    });
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);

    const parsed = new AbortController();
    const late = importSessions(store, text, {
      signal: parsed.signal,
      onProgress: (p) => {
        if (p.totalSessions !== undefined) parsed.abort();
      },
    });
    await expect(late).rejects.toMatchObject({ name: 'AbortError' });
    expect(await store.listSessionKeys()).toEqual([]);
  });

  it('completes an import whose signal aborts once the write has started: the transaction is whole or nothing', async () => {
    const store = database().open();
    const writing = new AbortController();
    const result = await importSessions(store, JSON.stringify(manySessions(150, 1)), {
      signal: writing.signal,
      onProgress: (p) => {
        if (p.sessions > 0) writing.abort();
      },
    });
    expect(writing.signal.aborted).toBe(true);
    expect(result).toEqual({ sessions: 150, events: 150, skipped: 0 });
    expect(await store.listSessionKeys()).toHaveLength(150);
  });
});

describe('through the worker client (MessageChannel)', () => {
  it('round-trips, with write progress crossing the boundary and errors keeping their class', async () => {
    const source = database().client();
    await seed(source);
    const text = await exportText(source);
    expect(JSON.parse(text).sessions).toHaveLength(5);
    const db = database();
    const target = db.client();
    expect(await importSessions(target, text)).toEqual({ sessions: 5, events: 8, skipped: 0 });
    expect(await exportText(target)).toBe(text);

    const reports: number[] = [];
    await importSessions(target, JSON.stringify(manySessions(120, 1)), {
      onProgress: (p) => reports.push(p.sessions),
    });
    expect(reports.some((s) => s > 0 && s < 120)).toBe(true);
    expect(reports.at(-1)).toBe(120);

    const conflict = importSessions(target, text);
    await expect(conflict).rejects.toBeInstanceOf(AlreadyExistsError);
    const copy = await db.open().getSession({ appName: 'chat', userId: 'ada', sessionId: 's1' });
    expect(copy?.events).toHaveLength(3);
  });
});
