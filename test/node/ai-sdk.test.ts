/**
 * The AI SDK mapping: every kind of `UIMessage` part survives the trip to an
 * ADK event and back (through JSON and through the store), tool calls and files
 * land in the ADK fields they mean, and `persistChat` keeps a chat across reloads,
 * hands out and sends files as `data:` URLs in any tab, and keeps the chat's title in state.
 */
import assert from 'node:assert/strict';
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { inStep } from '../../src/ai-sdk/in-step.js';
import {
  CHAT_TITLE_KEY,
  chatTitle,
  eventsToMessages,
  eventToMessage,
  messageToEvent,
  persistChat,
} from '../../src/ai-sdk/index.js';
import { InvalidInputError, type Session, withoutRewound } from '../../src/index.js';
import { uiMessage } from '../ai-sdk/arbitraries.js';
import { closeStores, key, storeOn } from '../ai-sdk/stores.js';

/** A 1x1 PNG, as base64. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
let n = 0;
afterEach(closeStores);

const every: UIMessage = {
  id: 'm1',
  role: 'assistant',
  metadata: { model: 'mock', tokens: 12 },
  parts: [
    { type: 'step-start' },
    { type: 'reasoning', text: 'Adding.', state: 'done' },
    { type: 'tool-add', toolCallId: 'call-1', state: 'output-available', input: { a: 2, b: 3 }, output: 5 },
    {
      type: 'dynamic-tool',
      toolName: 'lookup',
      toolCallId: 'call-2',
      state: 'output-error',
      input: { q: 'x' },
      errorText: 'offline',
    },
    { type: 'text', text: '2 + 3 = 5', state: 'done', providerMetadata: { mock: { cached: true } } },
    { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'dot.png' },
    { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
    { type: 'source-url', sourceId: 's1', url: 'https://example.com', title: 'Example' },
    { type: 'source-document', sourceId: 's2', mediaType: 'application/pdf', title: 'Doc' },
    { type: 'data-weather', id: 'w1', data: { city: 'Paris', temp: 21 } },
  ],
};

describe('UIMessage <-> ADK event', () => {
  it('round-trips every kind of part, exactly, through the JSON the store keeps', () => {
    fc.assert(
      fc.property(uiMessage, (message) => {
        const event = JSON.parse(JSON.stringify(messageToEvent(message)));
        // node's deep-strict equality: Vitest's toStrictEqual compares `.constructor`, which a
        // message may hold as a plain key (`providerMetadata: { constructor: {} }`).
        assert.deepStrictEqual(eventToMessage(event), message);
      }),
      { numRuns: 300 },
    );
  });

  it('puts tool calls, results, reasoning and files in the ADK fields that mean them', () => {
    const event = messageToEvent(every, { author: 'helper', timestamp: 1000, invocationId: 'turn-1' });
    expect(event).toMatchObject({ id: 'm1', author: 'helper', timestamp: 1000, invocationId: 'turn-1' });
    expect(event.content).toEqual({
      role: 'model',
      parts: [
        { text: 'Adding.', thought: true },
        { functionCall: { id: 'call-1', name: 'add', args: { a: 2, b: 3 } } },
        { functionResponse: { id: 'call-1', name: 'add', response: { result: 5 } } },
        { functionCall: { id: 'call-2', name: 'lookup', args: { q: 'x' } } },
        { functionResponse: { id: 'call-2', name: 'lookup', response: { error: 'offline' } } },
        { text: '2 + 3 = 5' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=', displayName: 'dot.png' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
      ],
    });
  });

  it('reads events ADK wrote: text, thoughts, and a call answered in a later event as one tool part', () => {
    const messages = eventsToMessages([
      {
        id: 'u',
        invocationId: 'i',
        author: 'user',
        timestamp: 1,
        content: { role: 'user', parts: [{ text: 'add 2 and 3' }] },
      },
      {
        id: 'a',
        invocationId: 'i',
        author: 'agent',
        timestamp: 2,
        content: {
          role: 'model',
          parts: [{ text: 'hmm', thought: true }, { functionCall: { id: 'c', name: 'add', args: { a: 2 } } }],
        },
      },
      {
        id: 'r',
        invocationId: 'i',
        author: 'user',
        timestamp: 3,
        content: { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'add', response: { result: 5 } } }] },
      },
    ]);
    expect(messages).toEqual([
      { id: 'u', role: 'user', parts: [{ type: 'text', text: 'add 2 and 3' }] },
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'hmm' },
          {
            type: 'dynamic-tool',
            toolName: 'add',
            toolCallId: 'c',
            state: 'output-available',
            input: { a: 2 },
            output: { result: 5 },
          },
        ],
      },
    ]);
  });
});

describe('persistChat', () => {
  it('saves messages and loads them back in another tab, exactly; a re-saved message replaces its event', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const chat = persistChat(storeOn(indexedDB, dbName), key);
    expect(await chat.load()).toEqual([]);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'add 2 and 3' }] };
    await chat.save(user);
    const pending: UIMessage = { ...every, parts: every.parts.slice(0, 2) };
    await chat.onFinish({ message: pending });
    await chat.save(every);
    const other = persistChat(storeOn(indexedDB, dbName), key);
    expect(await other.load()).toEqual([user, every]);
  });

  it('keeps inline files as artifact Blobs, not base64 in the event, and loads them back exactly', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    const message: UIMessage = {
      id: 'u/1',
      role: 'user',
      parts: [
        { type: 'text', text: 'what is this?' },
        { type: 'file', mediaType: 'image/png', filename: 'dot.png', url: `data:image/png;base64,${png}` },
        { type: 'file', mediaType: 'text/html', url: 'https://example.com/page.html' },
      ],
    };
    await chat.save(message);
    await chat.save(message);
    const event = (await store.getSession(key))?.events[0];
    expect(JSON.stringify(event)).not.toContain(png);
    expect(event?.actions?.artifactDelta).toEqual({ 'chat-files/u%2F1/1': 0 });
    expect(event?.content?.parts?.[1]?.fileData?.fileUri).toMatch(/^indexeddb:\/\/.*chat-files/);
    const stored = await store.artifacts.loadArtifactBlob({ ...key, filename: 'chat-files/u%2F1/1' });
    expect(stored?.mimeType).toBe('image/png');
    expect(await store.artifacts.listVersions({ ...key, filename: 'chat-files/u%2F1/1' })).toEqual([0]);
    expect(await persistChat(storeOn(indexedDB, dbName), key).load()).toEqual([message]);
    // A chat that keeps its own files inline still shows the ones another tab kept as artifacts.
    expect(await persistChat(store, key, { files: 'inline' }).load()).toEqual([message]);
  });

  it('keeps the files of a message whose id is ".", "..", not well-formed or too long for a name, exactly', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    const file = { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' } as const;
    const ids = ['.', '..', 'lone \uD800', 'x'.repeat(1020)];
    const messages: UIMessage[] = ids.map((id) => ({ id, role: 'user', parts: [file] }));
    for (const message of messages) await chat.save(message);
    expect(await persistChat(storeOn(indexedDB, dbName), key).load()).toEqual(messages);
    // "." and ".." name artifacts of their own; the other two ids cannot name one, so their files stay inline.
    const events = (await store.getSession(key))?.events ?? [];
    expect(events.map((e) => Object.keys(e.actions?.artifactDelta ?? {}))).toEqual([
      ['chat-files/%2E/0'],
      ['chat-files/%2E%2E/0'],
      [],
      [],
    ]);
  });

  it('keeps files inline as base64 with files: "inline"', async () => {
    const indexedDB = new IDBFactory();
    const store = storeOn(indexedDB, `chat-${n++}`);
    const chat = persistChat(store, key, { files: 'inline' });
    await chat.load();
    const message: UIMessage = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGk=' }],
    };
    await chat.save(message);
    expect((await store.getSession(key))?.events[0]?.content?.parts?.[0]?.inlineData?.data).toBe('aGk=');
    expect(await chat.load()).toEqual([message]);
  });

  it('keeps any message exactly through the store (property, 40 chats)', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const writer = storeOn(indexedDB, dbName);
    const reader = storeOn(indexedDB, dbName);
    let chats = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(uiMessage, { selector: (m) => m.id, maxLength: 4 }), async (messages) => {
        const chat = { ...key, sessionId: `p-${chats++}` };
        const saving = persistChat(writer, chat);
        await saving.load();
        for (const message of messages) await saving.save(message);
        assert.deepStrictEqual(await persistChat(reader, chat).load(), messages);
      }),
      { numRuns: 40 },
    );
  });

  it("stores the user's message before the request goes out, so a failed (offline) request loses nothing", async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    const seenAtSend: number[] = [];
    const offline: ChatTransport<UIMessage> = {
      async sendMessages() {
        seenAtSend.push((await store.getSession(key))?.events.length ?? -1);
        throw new TypeError('Failed to fetch');
      },
      reconnectToStream: async () => null as ReadableStream<UIMessageChunk> | null,
    };
    const message: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'typed offline' }] };
    await expect(
      chat.transport(offline).sendMessages({
        trigger: 'submit-message',
        chatId: key.sessionId,
        messageId: undefined,
        messages: [message],
        abortSignal: undefined,
      }),
    ).rejects.toThrow('Failed to fetch');
    expect(seenAtSend).toEqual([1]);
    // What useChat then hands to onFinish: an empty reply, which is not stored.
    await chat.onFinish({ message: { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }] } });
    expect(await persistChat(storeOn(indexedDB, dbName), key).load()).toEqual([message]);
  });
});

describe('persistChat, what another tab reads', () => {
  const photo: UIMessage = {
    id: 'u1',
    role: 'user',
    parts: [
      { type: 'text', text: '  what   is\nthis?  ' },
      { type: 'file', mediaType: 'image/png', filename: 'dot.png', url: `data:image/png;base64,${png}` },
    ],
  };

  it('hands out files as the data: URLs they were saved from, each artifact read once per chat', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    // Saved without load(): the first save makes the session.
    await persistChat(storeOn(indexedDB, dbName), key).save(photo);
    const other = storeOn(indexedDB, dbName);
    let reads = 0;
    const loadArtifactBlob = other.artifacts.loadArtifactBlob.bind(other.artifacts);
    other.artifacts.loadArtifactBlob = (request) => {
      reads++;
      return loadArtifactBlob(request);
    };
    const chat = persistChat(other, key);
    const events = (await other.getSession(key))?.events ?? [];
    expect(eventsToMessages(events)[0]?.parts[1]).toMatchObject({ url: expect.stringMatching(/^indexeddb:\/\//) });
    expect(await chat.messages(events)).toEqual([photo]);
    expect(await chat.messages(events)).toEqual([photo]);
    expect(await chat.load()).toEqual([photo]);
    expect(reads).toBe(1);
  });

  it("sends files from eventsToMessages as data: URLs, never the store's indexeddb: URLs", async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.save(photo);
    const sent: UIMessage[][] = [];
    const transport = chat.transport({
      async sendMessages(request) {
        sent.push(request.messages);
        return new ReadableStream<UIMessageChunk>();
      },
      reconnectToStream: async () => null,
    });
    const raw = eventsToMessages((await store.getSession(key))?.events ?? []);
    const next: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'and this?' }] };
    await transport.sendMessages({
      trigger: 'submit-message',
      chatId: key.sessionId,
      messageId: undefined,
      messages: [...raw, next],
      abortSignal: undefined,
    });
    expect(sent).toEqual([[photo, next]]);
  });

  it("keeps a title in the session's state from the first user message, for listSessions to show", async () => {
    const indexedDB = new IDBFactory();
    const store = storeOn(indexedDB, `chat-${n++}`);
    const chat = persistChat(store, key);
    await chat.save(photo);
    await chat.save({ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'a later question' }] });
    const listed = await store.listSessions({ appName: key.appName, userId: key.userId });
    expect(listed.sessions.map(chatTitle)).toEqual(['what is this?']);
    expect(listed.sessions[0]?.state[CHAT_TITLE_KEY]).toBe('what is this?');

    const long = { id: 'l1', role: 'user', parts: [{ type: 'text', text: '😀'.repeat(100) }] } satisfies UIMessage;
    await persistChat(store, { ...key, sessionId: 'long' }).save(long);
    expect(chatTitle((await store.getSession({ ...key, sessionId: 'long' })) as Session)).toBe(`${'😀'.repeat(79)}…`);

    const custom = persistChat(store, { ...key, sessionId: 'custom' }, { title: () => 'Named' });
    await custom.save(photo);
    const none = persistChat(store, { ...key, sessionId: 'none' }, { title: false });
    await none.save(photo);
    expect(chatTitle((await store.getSession({ ...key, sessionId: 'custom' })) as Session)).toBe('Named');
    expect(chatTitle((await store.getSession({ ...key, sessionId: 'none' })) as Session)).toBeUndefined();
  });
});

describe('useChatInStep: what useChat is given', () => {
  const m = (id: string, text = id): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

  it("takes the stored messages, keeps this tab's not stored yet after them, and changes nothing when they agree", () => {
    const shown = [m('a'), m('b')];
    expect(inStep([m('a'), m('b')], shown)).toBe(shown);
    expect(inStep([m('a')], shown)).toBe(shown);
    expect(inStep([m('a'), m('x'), m('b')], shown)).toEqual([m('a'), m('x'), m('b')]);
    expect(inStep([m('a', 'edited elsewhere')], shown)).toEqual([m('a', 'edited elsewhere'), m('b')]);
    expect(inStep([], [])).toEqual([]);
  });

  it('drops what the store holds as an alternative not shown (another tab switched branches)', () => {
    const shown = [m('q'), m('new reply')];
    expect(inStep([m('q'), m('old reply')], shown, new Set(['q', 'old reply', 'new reply']))).toEqual([
      m('q'),
      m('old reply'),
    ]);
  });
});

describe('persistChat: edits and regenerated replies branch the chat', () => {
  const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
  const reply = (id: string, text: string): UIMessage => ({ id, role: 'assistant', parts: [{ type: 'text', text }] });
  const answering: ChatTransport<UIMessage> = {
    sendMessages: async () => new ReadableStream<UIMessageChunk>(),
    reconnectToStream: async () => null,
  };
  /** What useChat does for a turn: the request through the chat's transport, then onFinish with the reply. */
  async function turn(
    chat: ReturnType<typeof persistChat>,
    request: { trigger: 'submit-message' | 'regenerate-message'; messageId?: string; messages: UIMessage[] },
    answer: UIMessage,
  ) {
    await chat.transport(answering).sendMessages({
      chatId: key.sessionId,
      abortSignal: undefined,
      messageId: undefined,
      ...request,
    });
    await chat.onFinish({ message: answer });
  }

  it('keeps a regenerated reply as an alternative, and switchBranch brings the first back in another tab', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    const question = user('q', 'Why is the sky blue?');
    await turn(chat, { trigger: 'submit-message', messages: [question] }, reply('a1', 'Rayleigh scattering.'));
    // useChat's regenerate(): the reply is dropped and the request holds what came before it.
    await turn(chat, { trigger: 'regenerate-message', messages: [question] }, reply('a2', 'Blue scatters more.'));
    expect(await chat.load()).toEqual([question, reply('a2', 'Blue scatters more.')]);
    const events = (await store.getSession(key))?.events ?? [];
    expect(eventsToMessages(events).map((message) => message.id)).toEqual(['q', 'a2']);
    expect(chat.branches(events)).toEqual(new Map([['a2', { count: 2, index: 1 }]]));

    const other = persistChat(storeOn(indexedDB, dbName), key);
    await other.switchBranch('a2', 0);
    expect(await chat.load()).toEqual([question, reply('a1', 'Rayleigh scattering.')]);
    expect(chat.branches((await store.getSession(key))?.events ?? [])).toEqual(
      new Map([['a1', { count: 2, index: 0 }]]),
    );
    await expect(chat.switchBranch('a1', 2)).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('leaves an erased message out of the chat, in every tab', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    await turn(chat, { trigger: 'submit-message', messages: [user('u1', 'my card is 4111')] }, reply('a1', 'Noted.'));
    await store.erase({ ...key, eventIds: ['u1'] });
    expect(await persistChat(storeOn(indexedDB, dbName), key).load()).toEqual([reply('a1', 'Noted.')]);
  });

  it('keeps an edited message under its id as a new alternative, its title following the branch shown', async () => {
    const indexedDB = new IDBFactory();
    const dbName = `chat-${n++}`;
    const store = storeOn(indexedDB, dbName);
    const chat = persistChat(store, key);
    await chat.load();
    await turn(chat, { trigger: 'submit-message', messages: [user('u1', 'Plan Lisbon')] }, reply('a1', 'Lisbon!'));
    // useChat's sendMessage({ text, messageId }): the message replaced, what followed it dropped.
    const edited = user('u1', 'Plan Porto');
    await turn(chat, { trigger: 'submit-message', messageId: 'u1', messages: [edited] }, reply('a2', 'Porto!'));
    expect(await chat.load()).toEqual([edited, reply('a2', 'Porto!')]);
    expect(chatTitle((await store.getSession(key)) as Session)).toBe('Plan Porto');
    // All four messages are stored; the first two are an alternative.
    const events = (await store.getSession(key))?.events ?? [];
    expect(withoutRewound(events).length).toBe(2);
    expect(events.filter((event) => event.content).length).toBe(4);
    expect(chat.branches(events)).toEqual(new Map([['u1', { count: 2, index: 1 }]]));
    // Saving the edited message again (a retry) replaces its own event, not the one it replaced.
    await chat.save(edited);
    expect(await persistChat(storeOn(indexedDB, dbName), key).load()).toEqual([edited, reply('a2', 'Porto!')]);

    await chat.switchBranch('u1', 0);
    expect(await chat.load()).toEqual([user('u1', 'Plan Lisbon'), reply('a1', 'Lisbon!')]);
    expect(chatTitle((await store.getSession(key)) as Session)).toBe('Plan Lisbon');
    await chat.switchBranch('u1', 1);
    expect(await chat.load()).toEqual([edited, reply('a2', 'Porto!')]);
  });
});
