/**
 * The demo agent through a real store (in-thread, fake-indexeddb): what each
 * message stores, in which scope, and that `temp:` keys help the turn but are
 * never stored.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_NAME, NOTE_FILE, parseIntent, runTurn } from '../../demo/agent.js';
import { attachmentName } from '../../demo/attachments.js';
import { IndexedDbSessionService, type Session } from '../../src/index.js';

let store: IndexedDbSessionService;
let other: IndexedDbSessionService;
let n = 0;
let ids = 0;
const options = { now: () => 1_700_000_000_000, newId: () => `id-${ids++}` };

beforeEach(() => {
  const indexedDB = new IDBFactory();
  const dbName = `agent-${n++}`;
  store = new IndexedDbSessionService({ indexedDB, dbName });
  other = new IndexedDbSessionService({ indexedDB, dbName });
});
afterEach(async () => {
  await store.close();
  await other.close();
});

const stored = (s: Session) => store.getSession({ appName: s.appName, userId: s.userId, sessionId: s.id });
const texts = (s: Session) => s.events.map((e) => e.content?.parts?.map((p) => p.text ?? '').join(''));

describe('parseIntent', () => {
  it.each([
    ['my name is Ada', { kind: 'name', name: 'Ada' }],
    ["I'm Grace Hopper.", { kind: 'name', name: 'Grace Hopper' }],
    ['call me Ken', { kind: 'name', name: 'Ken' }],
    ['add 2 and 3', { kind: 'add', a: 2, b: 3 }],
    ['what is -1.5 + 4', { kind: 'add', a: -1.5, b: 4 }],
    ['what time is it?', { kind: 'time' }],
    ['help', { kind: 'help' }],
    ['save a note: buy milk\nand eggs', { kind: 'note', note: 'buy milk\nand eggs' }],
    ['please save a note: x', { kind: 'chat' }],
    ['I have 2 and 3 cats', { kind: 'chat' }],
    ['hello', { kind: 'chat' }],
  ])('%s', (text, intent) => {
    expect(parseIntent(text)).toEqual(intent);
  });
});

describe('runTurn', () => {
  it('stores a user event then the reply, updating the session object in place', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada' });
    const { events } = await runTurn(store, session, 'hello', options);
    expect(events.map((e) => e.author)).toEqual(['user', AGENT_NAME]);
    expect(events.map((e) => e.content?.role)).toEqual(['user', 'model']);
    expect(new Set(events.map((e) => e.invocationId)).size).toBe(1);
    expect(events[1]?.timestamp).toBeGreaterThan(events[0]?.timestamp ?? 0);
    // The caller's object saw every event and every delta (temp: keys included) as they were stored.
    expect(session.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(session.state).toMatchObject({ step: 1, 'app:message_count': 1, 'temp:message': 'hello' });
    const reloaded = await stored(session);
    expect(reloaded?.events).toEqual(events);
    expect(texts(reloaded as Session)[1]).toBe(
      'Hello! You said "hello". That is turn 1 of this session and message 1 to "app".',
    );
  });

  it('writes every scope: app counter, user name, session step; temp: keys are never stored', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada' });
    await runTurn(store, session, 'my name is Ada', options);
    await runTurn(store, session, 'how are you', options);
    const reloaded = (await stored(session)) as Session;
    expect(reloaded.state).toEqual({
      step: 2,
      last_intent: 'chat',
      'app:message_count': 2,
      'user:name': 'Ada',
    });
    expect(await store.getAppState({ appName: 'app' })).toEqual({ message_count: 2 });
    expect(await store.getUserState({ appName: 'app', userId: 'ada' })).toEqual({ name: 'Ada' });
    for (const event of reloaded.events) {
      expect(Object.keys(event.actions?.stateDelta ?? {}).filter((k) => k.startsWith('temp:'))).toEqual([]);
    }
    // The reply read the temp: key within its turn.
    expect(texts(reloaded)[3]).toBe(
      'Hello, Ada! You said "how are you". That is turn 2 of this session and message 2 to "app".',
    );
  });

  it('shares user:name with the same user only, and counts app messages across users', async () => {
    const first = await store.createSession({ appName: 'app', userId: 'ada' });
    await runTurn(store, first, 'my name is Ada', options);
    const second = await store.createSession({ appName: 'app', userId: 'ada' });
    const bobs = await store.createSession({ appName: 'app', userId: 'bob' });
    await runTurn(store, second, 'hi', options);
    await runTurn(store, bobs, 'hi', options);
    expect(texts((await stored(second)) as Session)[1]).toContain('Hello, Ada!');
    const bob = (await stored(bobs)) as Session;
    expect(texts(bob)[1]).toBe('Hello! You said "hi". That is turn 1 of this session and message 3 to "app".');
    expect(bob.state['user:name']).toBeUndefined();
  });

  it('calls a tool: function call and response events, and a reply using the result', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada' });
    const { events } = await runTurn(store, session, 'add 2 and 3', options);
    expect(events).toHaveLength(4);
    const call = events[1]?.content?.parts?.[0]?.functionCall;
    const response = events[2]?.content?.parts?.[0]?.functionResponse;
    expect(call).toMatchObject({ name: 'add', args: { a: 2, b: 3 } });
    expect(response).toMatchObject({ name: 'add', response: { result: 5 } });
    expect(response?.id).toBe(call?.id);
    expect(events[2]?.content?.role).toBe('user');
    expect(events[3]?.content?.parts?.[0]?.text).toBe(
      "2 + 3 = 5 (the add tool's answer, passed to me in temp:tool_result).",
    );
    expect((await stored(session))?.state).not.toHaveProperty('temp:tool_result');
  });

  it('answers the time from its clock', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada' });
    const at = new Date(2025, 0, 2, 14, 3, 7).getTime();
    const { events } = await runTurn(store, session, 'what time is it', { ...options, now: () => at });
    expect(events[1]?.content?.parts?.[0]?.functionCall?.name).toBe('get_current_time');
    expect(events[3]?.content?.parts?.[0]?.text).toMatch(/^It is 14:03:07 /);
  });

  it('gives the same replies for the same messages', async () => {
    // Each run on a store of its own, as on two machines.
    const run = async () => {
      const own = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'same' });
      const s = await own.createSession({ appName: 'app', userId: 'u' });
      for (const m of ['my name is Ada', 'add 1 and 2', 'help', 'bye']) await runTurn(own, s, m, options);
      const replies = texts((await own.getSession({ appName: 'app', userId: 'u', sessionId: s.id })) as Session);
      await own.close();
      return replies;
    };
    expect(await run()).toEqual(await run());
  });

  it('reloads and retries once when another tab wrote to the session meanwhile', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada' });
    const elsewhere = (await other.getSession({ appName: 'app', userId: 'ada', sessionId: session.id })) as Session;
    await runTurn(other, elsewhere, 'my name is Ada', options);
    // `session` is now stale; the turn still lands, after the other tab's events.
    const result = await runTurn(store, session, 'hello', options);
    expect(result.session).not.toBe(session);
    const reloaded = (await stored(session)) as Session;
    expect(reloaded.events.map((e) => e.author)).toEqual(['user', AGENT_NAME, 'user', AGENT_NAME]);
    expect(reloaded.state.step).toBe(2);
    expect(texts(reloaded)[3]).toContain('Hello, Ada! You said "hello"');
  });
});

describe('notes and attachment names', () => {
  it('saves "save a note: ..." as a text artifact and records its version in the reply\'s artifactDelta', async () => {
    const session = await store.createSession({ appName: 'app', userId: 'ada', sessionId: 'notes' });
    const key = { appName: 'app', userId: 'ada', sessionId: 'notes' };
    await runTurn(store, session, 'save a note: buy milk', options);
    const { events } = await runTurn(store, session, 'save a note: and eggs', options);
    expect(events.at(-1)?.actions?.artifactDelta).toEqual({ [NOTE_FILE]: 1 });
    expect(await store.artifacts.loadArtifact({ ...key, filename: NOTE_FILE, version: 0 })).toEqual({
      text: 'buy milk',
    });
    expect(await store.artifacts.loadArtifact({ ...key, filename: NOTE_FILE })).toEqual({ text: 'and eggs' });
    expect(texts((await stored(session)) as Session).at(-1)).toContain('version 1');
  });

  it('makes any file name one the store accepts, keeping ordinary names as they are', async () => {
    const key = { appName: 'app', userId: 'ada', sessionId: 'files' };
    for (const name of ['photo.png', 'a/../b', '..', '.', '', 'user:x', 'a\u0000b', 'c:\\x\\y.txt', 'é 你好.md']) {
      const filename = attachmentName(name);
      expect(await store.artifacts.saveArtifact({ ...key, filename, artifact: { text: name } })).toBeGreaterThanOrEqual(
        0,
      );
      expect(filename.startsWith('user:')).toBe(false);
    }
    expect(attachmentName('photo.png')).toBe('photo.png');
    expect(attachmentName('é 你好.md')).toBe('é 你好.md');
  });
});
