/**
 * `chatClientPersistence` under a real TanStack AI `ChatClient` (the installed
 * package), its connection a stream the test feeds chunk by chunk: the user's
 * message stored at once, the reply in a draft as it streams (appends holding
 * only what is new), finished into one event; a tab gone mid-reply leaves it to
 * load back marked interrupted; a failed write reaches the app as the store's
 * typed error, and is retried; messages round-trip exactly.
 */
import { convertMessagesToModelMessages } from '@tanstack/ai';
import { ChatClient, type ChatClientOptions, stream, type UIMessage } from '@tanstack/ai-client';
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type DraftDelta,
  IndexedDbSessionService,
  InvalidInputError,
  MAX_RECORD_SIZE,
  QuotaExceededError,
  type SessionStore,
  type SessionStoreError,
  StoreClosedError,
} from '../../src/index.js';
import {
  chatClientPersistence,
  eventToMessage,
  INTERRUPTED_TOOL_ERROR,
  isInterrupted,
  messageToEvent,
  type StoredChatPersistence,
} from '../../src/tanstack-ai/index.js';
import { storeKinds } from './store-kinds.js';

type Chunk = Parameters<NonNullable<ChatClientOptions['onChunk']>>[0];

const threadId = 'chat-1';
const key = { appName: 'chat', userId: 'ada', sessionId: threadId };
const opened: SessionStore[] = [];
const clients: ChatClient[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const client of clients.splice(0)) client.stop();
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
});

/** A connection whose one reply the test feeds: the send streams what `push` gives it until `end`. */
function feed() {
  const queue: Chunk[] = [];
  let ended = false;
  let wake = () => {};
  const connection = stream(async function* () {
    for (;;) {
      const next = queue.shift();
      if (next) yield next;
      else if (ended) return;
      else
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
    }
  });
  return {
    connection,
    push(...chunks: Chunk[]) {
      queue.push(...chunks);
      wake();
    },
    end() {
      ended = true;
      wake();
    },
  };
}

const chunk = (fields: Record<string, unknown>) => ({ timestamp: 0, ...fields }) as unknown as Chunk;
const start = (messageId = 'a1') => [
  chunk({ type: 'RUN_STARTED', runId: `run-${messageId}`, threadId }),
  chunk({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }),
];
const text = (delta: string, messageId = 'a1') => chunk({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta });
const finish = (messageId = 'a1') => [
  chunk({ type: 'TEXT_MESSAGE_END', messageId }),
  chunk({ type: 'RUN_FINISHED', runId: `run-${messageId}`, threadId, finishReason: 'stop' }),
];

function client(persistence: StoredChatPersistence, connection: ReturnType<typeof feed>['connection']): ChatClient {
  const c = new ChatClient({ threadId, persistence, connection, onFinish: (m) => persistence.onFinish(m) });
  clients.push(c);
  return c;
}

/** The deltas the adapter hands the store's draft writers: what a streamed reply writes. */
function recordAppends(store: SessionStore): DraftDelta[] {
  const appended: DraftDelta[] = [];
  const begin = store.drafts.begin.bind(store.drafts);
  vi.spyOn(store.drafts, 'begin').mockImplementation(async (request) => {
    const writer = await begin(request);
    const append = writer.append.bind(writer);
    writer.append = (delta) => {
      appended.push(delta);
      append(delta);
    };
    return writer;
  });
  return appended;
}

describe.each(storeKinds('tanstack-ai'))('a ChatClient on chatClientPersistence, %s', (_kind, open) => {
  it('stores the question at once, the reply in a draft as it streams, then both as events', async () => {
    const store = open();
    opened.push(store);
    const appended = recordAppends(store);
    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada', maxLossMs: 0 });
    const { connection, push, end } = feed();
    const chat = client(persistence, connection);
    const sent = chat.sendMessage('Hi!');
    push(...start(), text('Hel'), text('lo, '), text('Ada'));
    await expect
      .poll(async () => (await store.drafts.list(key)).map((d) => [d.id, d.content.parts]))
      .toEqual([['a1', [{ text: 'Hello, Ada' }]]]);
    const during = (await store.getSession(key))?.events ?? [];
    expect(during.map((e) => [e.author, e.content?.parts])).toEqual([['user', [{ text: 'Hi!' }]]]);
    push(...finish());
    end();
    await sent;
    await persistence.flush(threadId);

    expect(await store.drafts.list(key)).toEqual([]);
    const events = (await store.getSession(key))?.events ?? [];
    expect(events.map((e) => [e.id, e.author, e.content])).toEqual([
      [chat.getMessages()[0]?.id, 'user', { role: 'user', parts: [{ text: 'Hi!' }] }],
      ['a1', 'assistant', { role: 'model', parts: [{ text: 'Hello, Ada' }] }],
    ]);
    // Each append held only what was new: the reply's bytes, not chunks times its length.
    expect(appended.map((d) => d.text).join('')).toBe('Hello, Ada');
    // Another client of the chat loads exactly what this one shows.
    expect(await chatClientPersistence(store, { appName: 'chat', userId: 'ada' }).getItem(threadId)).toEqual({
      messages: chat.getMessages(),
    });
  });
});

describe('a tab gone mid-reply', () => {
  it('leaves the reply to load as a partial message marked interrupted, kept once the chat goes on', async () => {
    const indexedDB = new IDBFactory();
    const tab = () => {
      const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'tanstack-crash' });
      opened.push(store);
      return store;
    };
    const first = tab();
    const persistence = chatClientPersistence(first, { appName: 'chat', userId: 'ada' });
    const reply = feed();
    const chat = client(persistence, reply.connection);
    void chat.sendMessage('Tell me a story');
    reply.push(...start(), text('Once upon '), text('a time'));
    await expect
      .poll(async () => (await first.drafts.list(key)).map((d) => d.content.parts))
      .toEqual([[{ text: 'Once upon a time' }]]);
    // The tab closes mid-reply: its store writes what the draft held and lets it go.
    await first.close();

    const second = tab();
    const again = chatClientPersistence(second, { appName: 'chat', userId: 'ada' });
    const next = feed();
    const reloaded = client(again, next.connection);
    await expect.poll(() => reloaded.getMessages().length).toBe(2);
    const [question, partial] = reloaded.getMessages();
    expect(question?.parts).toEqual([{ type: 'text', content: 'Tell me a story' }]);
    expect(partial?.parts).toEqual([{ type: 'text', content: 'Once upon a time' }]);
    expect(isInterrupted(partial as UIMessage)).toBe(true);
    expect(isInterrupted(question as UIMessage)).toBe(false);

    // The chat goes on: the cut-off reply becomes an event marked interrupted, the draft gone.
    const sent = reloaded.sendMessage('Go on');
    next.push(...start('a2'), text('...and they lived.', 'a2'), ...finish('a2'));
    next.end();
    await sent;
    await again.flush(threadId);
    expect(await second.drafts.list(key)).toEqual([]);
    const events = (await second.getSession(key))?.events ?? [];
    expect(events.map((e) => [e.author, e.interrupted ?? false, e.content?.parts?.[0]?.text])).toEqual([
      ['user', false, 'Tell me a story'],
      ['assistant', true, 'Once upon a time'],
      ['user', false, 'Go on'],
      ['assistant', false, '...and they lived.'],
    ]);
    const loaded = (await chatClientPersistence(second, { appName: 'chat', userId: 'ada' }).getItem(threadId)) as {
      messages: UIMessage[];
    };
    expect(loaded.messages.map(isInterrupted)).toEqual([false, true, false, false]);
  });
});

describe('a failed write', () => {
  it('reaches onError and flush as the store typed it, and is written with the next change', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-full' });
    opened.push(store);
    await store.createSession(key);
    const heard: SessionStoreError[] = [];
    const persistence = chatClientPersistence(store, {
      appName: 'chat',
      userId: 'ada',
      onError: (error) => heard.push(error),
    });
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'events') throw new DOMException('the disk is full', 'QuotaExceededError');
      return put.apply(this, args);
    });
    const { connection, push, end } = feed();
    const chat = client(persistence, connection);
    const sent = chat.sendMessage('Hi!');
    await expect.poll(() => heard.length).toBeGreaterThan(0);
    expect(heard[0]).toBeInstanceOf(QuotaExceededError);
    await expect(persistence.flush(threadId)).rejects.toBeInstanceOf(QuotaExceededError);
    expect((await store.getSession(key))?.events).toEqual([]);

    vi.restoreAllMocks();
    push(...start(), text('Hello'), ...finish());
    end();
    await sent;
    await persistence.flush(threadId);
    const events = (await store.getSession(key))?.events ?? [];
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(['Hi!', 'Hello']);
  });
});

describe('a delta no draft write could hold', () => {
  it('reaches onError typed, and leaves the draft a prefix of the reply: nothing after it is appended', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-huge' });
    opened.push(store);
    const heard: SessionStoreError[] = [];
    const persistence = chatClientPersistence(store, {
      appName: 'chat',
      userId: 'ada',
      maxLossMs: 0,
      onError: (error) => heard.push(error),
    });
    const { connection, push } = feed();
    const chat = client(persistence, connection);
    void chat.sendMessage('Hi!');
    push(...start(), text('Hello'));
    await expect
      .poll(async () => (await store.drafts.list(key)).map((d) => d.content.parts))
      .toEqual([[{ text: 'Hello' }]]);
    push(text('x'.repeat(MAX_RECORD_SIZE)));
    await expect.poll(() => heard.map((e) => e.constructor)).toEqual([InvalidInputError]);
    push(text(', Ada'));
    await expect
      .poll(() => chat.getMessages().at(-1)?.parts.at(-1))
      .toMatchObject({ content: expect.stringMatching(/, Ada$/) });
    await persistence.flush(threadId).catch(() => {});
    expect((await store.drafts.list(key)).map((d) => d.content.parts)).toEqual([[{ text: 'Hello' }]]);
  });
});

describe('messages as events', () => {
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as Record<string, unknown>;
  const message: UIMessage = {
    id: 'a9',
    role: 'assistant',
    createdAt: new Date(1_700_000_000_000),
    metadata: { tanstack: { model: 'm' }, note: proto },
    parts: [
      { type: 'thinking', content: 'Check the weather.', stepId: 's1' } as UIMessage['parts'][number],
      { type: 'text', content: 'Looking it up.' },
      {
        type: 'tool-call',
        id: 'c1',
        name: 'weather',
        arguments: '{"city":"Paris","__proto__":{"x":1}}',
        input: JSON.parse('{"city":"Paris","__proto__":{"x":1}}'),
        state: 'complete',
        output: { temp: 20 },
      },
      { type: 'tool-result', toolCallId: 'c1', content: '{"temp":20}', state: 'complete' },
      { type: 'tool-call', id: 'c2', name: 'raw', arguments: '{"half":', state: 'input-complete' },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        name: 'raw',
        content: 'not json',
        state: 'error',
        error: 'bad input',
        createdAt: new Date(1_700_000_000_500),
      },
      {
        type: 'image',
        source: { type: 'data', value: 'iVBORw0KGgo=', mimeType: 'image/png' },
        metadata: { detail: 'low' },
      },
      { type: 'document', source: { type: 'url', value: 'https://example.com/a.pdf' } },
      { type: 'structured-output', status: 'complete', raw: '{"a":1}', data: { a: 1 } },
      { type: 'text', content: 'It is 20.' },
    ],
  };

  it('maps each part to what ADK reads, and back exactly', () => {
    const event = messageToEvent(message);
    expect(event.content).toEqual({
      role: 'model',
      parts: [
        { text: 'Check the weather.', thought: true },
        { text: 'Looking it up.' },
        { functionCall: { id: 'c1', name: 'weather', args: JSON.parse('{"city":"Paris","__proto__":{"x":1}}') } },
        { functionResponse: { id: 'c1', response: { temp: 20 } } },
        { functionCall: { id: 'c2', name: 'raw' } },
        { functionResponse: { id: 'c2', name: 'raw', response: { result: 'not json' } } },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
        { fileData: { fileUri: 'https://example.com/a.pdf' } },
        { text: 'It is 20.' },
      ],
    });
    expect(event.timestamp).toBe(1_700_000_000_000);
    const back = eventToMessage(JSON.parse(JSON.stringify(event)));
    expect(back).toEqual(message);
    expect(Object.getPrototypeOf(back.metadata?.note)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('round-trips through the store: what a ChatClient saves is what the next one loads', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-trip' });
    opened.push(store);
    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada' });
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', content: 'Weather?' }] };
    persistence.setItem(threadId, { messages: [question, message] });
    persistence.onFinish(message);
    await persistence.flush(threadId);
    const loaded = await chatClientPersistence(store, { appName: 'chat', userId: 'ada' }).getItem(threadId);
    expect(loaded).toEqual({ messages: [question, message] });
  });
});

describe('the chat as the ChatClient changes it', () => {
  it('finishes a reply once a message follows it, replaces a changed message in place, and rewinds on clear()', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-edit' });
    opened.push(store);
    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada' });
    const u1: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', content: 'Weather?' }] };
    const call = {
      type: 'tool-call',
      id: 'c1',
      name: 'weather',
      arguments: '{}',
      input: {},
      state: 'input-complete',
    } as const;
    const a1: UIMessage = { id: 'a1', role: 'assistant', parts: [{ type: 'text', content: 'Checking.' }, call] };
    // No onFinish: the reply stays a draft while it is last…
    persistence.setItem(threadId, { messages: [u1, a1] });
    await persistence.flush(threadId);
    expect((await store.drafts.list(key)).map((d) => d.id)).toEqual(['a1']);
    // …and is finished once a message follows it.
    const u2: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', content: 'And tomorrow?' }] };
    persistence.setItem(threadId, { messages: [u1, a1, u2] });
    await persistence.flush(threadId);
    expect(await store.drafts.list(key)).toEqual([]);
    // A tool's output arriving later replaces the stored reply in place.
    const answered: UIMessage = {
      ...a1,
      parts: [a1.parts[0] as UIMessage['parts'][number], { ...call, state: 'complete', output: { temp: 20 } }],
    };
    persistence.setItem(threadId, { messages: [u1, answered, u2] });
    await persistence.flush(threadId);
    const events = (await store.getSession(key))?.events ?? [];
    expect(events.map((e) => e.id)).toEqual(['u1', 'a1', 'u2']);
    expect(eventToMessage(events[1] as NonNullable<(typeof events)[number]>)).toEqual(answered);

    // clear(): the session reads empty, what it held stays stored as an alternative.
    persistence.removeItem(threadId);
    await persistence.flush(threadId);
    expect(await chatClientPersistence(store, { appName: 'chat', userId: 'ada' }).getItem(threadId)).toEqual({
      messages: [],
    });
    expect((await store.getSession(key))?.events.map((e) => e.id).slice(0, 3)).toEqual(['u1', 'a1', 'u2']);
  });

  it('drops an interrupted reply the ChatClient no longer shows', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-drop' });
    opened.push(store);
    const session = await store.createSession(key);
    await store.appendEvent({ session, event: messageToEvent({ id: 'u1', role: 'user', parts: [] }) });
    const writer = await store.drafts.begin({ session, id: 'cut' });
    writer.append({ text: 'Half' });
    await writer.release();
    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada' });
    const loaded = (await persistence.getItem(threadId)) as { messages: UIMessage[] };
    expect(loaded.messages.map((m) => [m.id, isInterrupted(m)])).toEqual([
      ['u1', false],
      ['cut', true],
    ]);
    persistence.setItem(threadId, { messages: loaded.messages.slice(0, 1) });
    await persistence.flush(threadId);
    expect(await store.drafts.list(key)).toEqual([]);
  });

  it('answers a tool call an interrupted reply left without its result with an error, shown and kept: the next request is valid', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-tool' });
    opened.push(store);
    const session = await store.createSession(key);
    const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] };
    await store.appendEvent({ session, event: messageToEvent(question) });
    // The tab died while the tool ran: the draft holds the call, no result.
    const writer = await store.drafts.begin({ session, id: 'cut' });
    writer.append({ parts: [{ functionCall: { id: 'call-1', name: 'weather', args: { city: 'Paris' } } }] });
    await writer.release();
    const next: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', content: 'And tomorrow?' }] };
    // What the app's server hands the model: every call must be answered by a tool message.
    const request = (messages: UIMessage[]) =>
      convertMessagesToModelMessages([...messages, next]).map((m) => [
        m.role,
        m.toolCalls?.map((c) => c.id),
        m.toolCallId,
      ]);
    const valid = [
      ['user', undefined, undefined],
      ['assistant', ['call-1'], undefined],
      ['tool', undefined, 'call-1'],
      ['user', undefined, undefined],
    ];

    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada' });
    const { messages } = (await persistence.getItem(threadId)) as { messages: UIMessage[] };
    expect(isInterrupted(messages[1] as UIMessage)).toBe(true);
    expect(messages[1]?.parts[1]).toMatchObject({
      type: 'tool-result',
      toolCallId: 'call-1',
      state: 'error',
      error: INTERRUPTED_TOOL_ERROR,
    });
    expect(request(messages)).toEqual(valid);

    // The chat goes on: the cut-off reply is stored as it was shown, its call answered for ADK too.
    persistence.setItem(threadId, { messages: [...messages, next] });
    await persistence.flush(threadId);
    const again = (await chatClientPersistence(store, { appName: 'chat', userId: 'ada' }).getItem(threadId)) as {
      messages: UIMessage[];
    };
    expect(request(again.messages.slice(0, 2))).toEqual(valid);
    const cut = (await store.getSession(key))?.events[1];
    expect(cut?.content?.parts?.map((p) => p.functionResponse?.response)).toEqual([
      undefined,
      { error: INTERRUPTED_TOOL_ERROR },
    ]);
  });

  it('tells onError once per kind of failure in a row, however many changes fail', async () => {
    const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), IDBKeyRange, dbName: 'tanstack-once' });
    opened.push(store);
    const heard: SessionStoreError[] = [];
    const persistence = chatClientPersistence(store, { appName: 'chat', userId: 'ada', onError: (e) => heard.push(e) });
    await store.close();
    for (const content of ['a', 'ab', 'abc']) {
      persistence.setItem(threadId, { messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', content }] }] });
      await expect(persistence.flush(threadId)).rejects.toBeInstanceOf(StoreClosedError);
    }
    expect(heard.map((e) => e.constructor)).toEqual([StoreClosedError]);
  });
});
