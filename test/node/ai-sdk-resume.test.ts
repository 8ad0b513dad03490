/**
 * A reply cut off mid-stream (its tab closed or reloaded), as the AI SDK
 * adapter gives it back: `load()` shows it as far as it was stored, marked
 * interrupted; `keepDraft` keeps it as a message once; and the transport's
 * `reconnectToStream` continues its draft from a resumable server stream,
 * whether the server replays the reply from its start or continues it, with no
 * text stored or shown twice and one finished event.
 */
import {
  type ChatTransport,
  convertToModelMessages,
  generateText,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_ERROR, persistChat, replyDraftOf } from '../../src/ai-sdk/index.js';
import { MAX_DRAFT_FILE_URL } from '../../src/ai-sdk/reply-chunks.js';
import type { StoreChange } from '../../src/index.js';
import { closeStores, key, storeOn } from '../ai-sdk/stores.js';

afterEach(closeStores);

const reply: UIMessageChunk[] = [
  { type: 'start', messageId: 'a1' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Greet ' },
  { type: 'reasoning-delta', id: 'r', delta: 'back.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hel' },
  { type: 'text-delta', id: 't', delta: 'lo, ' },
  { type: 'text-delta', id: 't', delta: 'Ada' },
  { type: 'text-end', id: 't' },
  { type: 'finish' },
];
const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi!' }] };
const fullParts = [
  { type: 'reasoning', text: 'Greet back.' },
  { type: 'text', text: 'Hello, Ada' },
];

const streamOf = (chunks: readonly UIMessageChunk[]) =>
  new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/**
 * A server that keeps the reply's stream (as `resumable-stream` does): the first tab reads its
 * first `cut` chunks; a reconnect gets the whole reply again (`replay`), or the rest of it.
 */
function resumableServer(cut: number, replay: boolean, chunks = reply): ChatTransport<UIMessage> {
  return {
    resumeStreamIsReplay: replay,
    sendMessages: async () => streamOf(chunks.slice(0, cut)),
    reconnectToStream: async () => streamOf(replay ? chunks : chunks.slice(cut)),
  };
}

/** The first tab: sends the question, reads `cut` chunks of the reply, and is closed mid-reply. */
async function cutOff(indexedDB: IDBFactory, cut: number, replay: boolean, chunks = reply): Promise<void> {
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const stream = await chat.transport(resumableServer(cut, replay, chunks)).sendMessages({
    trigger: 'submit-message',
    chatId: key.sessionId,
    messageId: undefined,
    messages: [question],
    abortSignal: undefined,
  });
  for await (const _ of stream);
  await expect.poll(async () => (await store.drafts.list(key)).length).toBe(1);
  await store.close();
}

/** What `useChat` makes of `stream`: the last state of the message (a malformed stream throws). */
async function shown(stream: ReadableStream<UIMessageChunk>): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  return last as UIMessage;
}

/** What `useChat` shows of the reply once `chat`'s transport reconnects to `server`. */
async function resumed(chat: ReturnType<typeof persistChat>, server: ChatTransport<UIMessage>): Promise<UIMessage> {
  const stream = await chat.transport(server).reconnectToStream({ chatId: key.sessionId });
  return shown(stream as ReadableStream<UIMessageChunk>);
}

const textOf = (message: UIMessage | undefined) => message?.parts.map((p) => ('text' in p ? p.text : p.type));

it('shows a reply cut off by a reload as far as it was stored, marked interrupted, and keeps it once', async () => {
  const indexedDB = new IDBFactory();
  await cutOff(indexedDB, 7, true);
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const [user, partial, ...rest] = await chat.load();
  expect([user, rest]).toEqual([question, []]);
  expect([partial?.id, partial?.role, textOf(partial)]).toEqual(['a1', 'assistant', ['Greet back.', 'Hel']]);
  const mark = replyDraftOf(partial as UIMessage);
  expect(mark?.state).toBe('interrupted');

  await chat.keepDraft(mark?.draftId as string);
  expect(await store.drafts.list(key)).toEqual([]);
  const after = await persistChat(store, key).load();
  expect(after.map((m) => [m.id, textOf(m), replyDraftOf(m)?.state])).toEqual([
    ['u1', ['Hi!'], undefined],
    ['a1', ['Greet back.', 'Hel'], 'kept'],
  ]);
  const events = (await store.getSession(key))?.events ?? [];
  expect(events.map((e) => [e.id, e.interrupted])).toEqual([
    ['u1', undefined],
    ['a1', true],
  ]);
});

/** The reply of a model (a mock answering `ok`) to `messages`, as an app's server route asks it. */
async function answer(messages: UIMessage[]): Promise<string> {
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  });
  return (await generateText({ model, messages: await convertToModelMessages(messages) })).text;
}

it('closes a tool call an interrupted reply left without its result, shown and kept, so the next request is valid', async () => {
  const withTool: UIMessageChunk[] = [
    { type: 'start', messageId: 'a1' },
    { type: 'tool-input-start', toolCallId: 'call-1', toolName: 'weather', dynamic: true },
    {
      type: 'tool-input-available',
      toolCallId: 'call-1',
      toolName: 'weather',
      input: { city: 'Paris' },
      dynamic: true,
    },
    { type: 'tool-output-available', toolCallId: 'call-1', output: { sky: 'clear' }, dynamic: true },
    { type: 'finish' },
  ];
  const indexedDB = new IDBFactory();
  // Cut after the call, before its result: the tab died while the tool ran.
  await cutOff(indexedDB, 3, true, withTool);
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const next: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And tomorrow?' }] };
  const closed = {
    type: 'dynamic-tool',
    toolName: 'weather',
    toolCallId: 'call-1',
    state: 'output-error',
    input: { city: 'Paris' },
    errorText: INTERRUPTED_TOOL_ERROR,
  };

  const shownCut = await chat.load();
  expect(replyDraftOf(shownCut[1] as UIMessage)?.state).toBe('interrupted');
  expect(shownCut[1]?.parts).toEqual([closed]);
  // What the app's server does with the chat's messages: a call without a result throws there.
  expect(await answer([...shownCut, next])).toBe('ok');

  await chat.keepDraft(replyDraftOf(shownCut[1] as UIMessage)?.draftId as string);
  const kept = await persistChat(store, key).load();
  expect(kept[1]?.parts).toEqual([closed]);
  expect(await answer([...kept, next])).toBe('ok');
  // ADK reads the call answered with an error, as its own sealing of an interrupted turn does.
  const event = (await store.getSession(key))?.events[1];
  expect(event?.content?.parts?.map((p) => p.functionResponse?.response)).toEqual([
    undefined,
    { error: INTERRUPTED_TOOL_ERROR },
  ]);
});

it('drops an interrupted reply: nothing of it is stored or shown', async () => {
  const indexedDB = new IDBFactory();
  await cutOff(indexedDB, 4, true);
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const partial = (await chat.load())[1] as UIMessage;
  expect(await chat.dropDraft(replyDraftOf(partial)?.draftId as string)).toBe(true);
  expect(await chat.load()).toEqual([question]);
  expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['u1']);
});

for (const replay of [true, false]) {
  it(`resumes a reply cut off at any chunk from a server that ${replay ? 'replays it from its start' : 'continues it'}: no text twice, one finished event`, async () => {
    for (let cut = 1; cut < reply.length - 1; cut++) {
      const indexedDB = new IDBFactory();
      await cutOff(indexedDB, cut, replay);
      const store = storeOn(indexedDB);
      const finished: StoreChange[] = [];
      store.subscribe(key, (change) => {
        if (change.type === 'appended' && change.eventIds.includes('a1')) finished.push(change);
      });
      const chat = persistChat(store, key);
      await chat.load();
      const message = await resumed(chat, resumableServer(cut, replay));
      expect([cut, message.id, textOf(message)]).toEqual([cut, 'a1', fullParts.map((p) => p.text)]);
      // The draft holds the whole reply once, before the save replaces it.
      await expect
        .poll(async () => [cut, (await store.drafts.list(key))[0]?.content.parts])
        .toEqual([cut, [{ text: 'Greet back.', thought: true }, { text: 'Hello, Ada' }]]);

      await chat.onFinish({ message });
      expect(await store.drafts.list(key)).toEqual([]);
      const loaded = await persistChat(store, key).load();
      expect([cut, loaded.map((m) => [m.id, textOf(m)])]).toEqual([
        cut,
        [
          ['u1', ['Hi!']],
          ['a1', ['Greet back.', 'Hello, Ada']],
        ],
      ]);
      await expect.poll(() => finished.length).toBe(1);
      await store.close();
    }
  }, 60_000);
}

it('keeps a file the reply streamed through a cut at any chunk, once, when the stream resumes or the reply is kept', async () => {
  const png =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const withFile: UIMessageChunk[] = [
    { type: 'start', messageId: 'a1' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Here it is: ' },
    { type: 'text-end', id: 't1' },
    { type: 'file', url: png, mediaType: 'image/png' },
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: 'a cat.' },
    { type: 'text-end', id: 't2' },
    { type: 'finish' },
  ];
  const file = { type: 'file', mediaType: 'image/png', url: png };
  const whole = [{ type: 'text', text: 'Here it is: ' }, file, { type: 'text', text: 'a cat.' }];
  const partsOf = (m: UIMessage | undefined) => m?.parts.map((p) => ('text' in p ? { type: p.type, text: p.text } : p));
  // From the chunk after the file on, the cut-off reply holds it.
  for (let cut = 5; cut < withFile.length - 1; cut++) {
    for (const replay of [true, false]) {
      const indexedDB = new IDBFactory();
      await cutOff(indexedDB, cut, replay, withFile);
      const store = storeOn(indexedDB);
      const chat = persistChat(store, key);
      const partial = (await chat.load())[1];
      expect([cut, partsOf(partial)?.[1]]).toEqual([cut, file]);
      const message = await resumed(chat, resumableServer(cut, replay, withFile));
      expect([cut, replay, partsOf(message)]).toEqual([cut, replay, whole]);
      await chat.onFinish({ message });
      expect([cut, partsOf((await persistChat(store, key).load())[1])]).toEqual([cut, whole]);
      await store.close();
    }
  }
  // Kept instead: the file stays in the cut-off message.
  const indexedDB = new IDBFactory();
  await cutOff(indexedDB, 6, true, withFile);
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  await chat.keepDraft(replyDraftOf((await chat.load())[1] as UIMessage)?.draftId as string);
  expect(partsOf((await persistChat(store, key).load())[1])).toEqual([{ type: 'text', text: 'Here it is: ' }, file]);
}, 60_000);

it('leaves a file over MAX_DRAFT_FILE_URL out of the draft, and stores it with the finished message', async () => {
  const big = `data:image/png;base64,${'A'.repeat(MAX_DRAFT_FILE_URL)}`;
  const chunks: UIMessageChunk[] = [
    { type: 'start', messageId: 'a1' },
    { type: 'file', url: big, mediaType: 'image/png' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'A large picture.' },
    { type: 'text-end', id: 't' },
    { type: 'finish' },
  ];
  const indexedDB = new IDBFactory();
  await cutOff(indexedDB, 5, true, chunks);
  const store = storeOn(indexedDB);
  expect((await store.drafts.list(key))[0]?.content.parts).toEqual([{ text: 'A large picture.' }]);
  const chat = persistChat(store, key);
  const message = await resumed(chat, resumableServer(5, true, chunks));
  await chat.onFinish({ message });
  const stored = (await persistChat(store, key).load())[1];
  expect(stored?.parts.map((p) => (p.type === 'file' ? p.url === big : p.type))).toEqual([true, 'text']);
});

it('leaves a reply interrupted, to keep or drop, when the server has no stream to resume', async () => {
  const indexedDB = new IDBFactory();
  await cutOff(indexedDB, 7, true);
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const gone: ChatTransport<UIMessage> = { ...resumableServer(7, true), reconnectToStream: async () => null };
  expect(await chat.transport(gone).reconnectToStream({ chatId: key.sessionId })).toBeNull();
  const [draft] = await store.drafts.list(key);
  expect([draft?.interrupted, draft?.content.parts]).toEqual([
    true,
    [{ text: 'Greet back.', thought: true }, { text: 'Hel' }],
  ]);
});

it('resumes nothing while another tab streams the reply: that tab writes it, and this one shows it from its draft', async () => {
  const indexedDB = new IDBFactory();
  const writer = storeOn(indexedDB);
  const stream = await persistChat(writer, key)
    .transport(resumableServer(7, true))
    .sendMessages({
      trigger: 'submit-message',
      chatId: key.sessionId,
      messageId: undefined,
      messages: [question],
      abortSignal: undefined,
    });
  for await (const _ of stream);
  await expect.poll(async () => (await writer.drafts.list(key))[0]?.content.parts?.length).toBe(2);
  const reader = storeOn(indexedDB);
  let asked = false;
  const server: ChatTransport<UIMessage> = {
    ...resumableServer(7, true),
    reconnectToStream: async () => {
      asked = true;
      return streamOf(reply);
    },
  };
  const chat = persistChat(reader, key);
  expect(await chat.transport(server).reconnectToStream({ chatId: key.sessionId })).toBeNull();
  expect(asked).toBe(false);
  const growing = (await chat.load())[1] as UIMessage;
  expect([textOf(growing), replyDraftOf(growing)?.state]).toEqual([['Greet back.', 'Hel'], 'streaming']);
});

it('keeps a reply whose connection dropped as this tab’s draft, unstored, and continues it when the stream resumes', async () => {
  const store = storeOn(new IDBFactory());
  const chat = persistChat(store, key);
  const server = resumableServer(7, true);
  const transport = chat.transport(server);
  const first = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: key.sessionId,
    messageId: undefined,
    messages: [question],
    abortSignal: undefined,
  });
  const partial = await shown(first);
  await chat.onFinish({ message: partial, isDisconnect: true });
  expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['u1']);
  const message = await shown((await transport.reconnectToStream({ chatId: key.sessionId })) as ReadableStream);
  expect(textOf(message)).toEqual(['Greet back.', 'Hello, Ada']);
  await expect
    .poll(async () => (await store.drafts.list(key)).map((d) => [d.interrupted, d.content.parts]))
    .toEqual([[false, [{ text: 'Greet back.', thought: true }, { text: 'Hello, Ada' }]]]);
  await chat.onFinish({ message });
  expect(await store.drafts.list(key)).toEqual([]);
  expect((await chat.load()).map(textOf)).toEqual([['Hi!'], ['Greet back.', 'Hello, Ada']]);
});
