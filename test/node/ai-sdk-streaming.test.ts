/**
 * `persistChat`'s transport storing the reply as it streams: its text and
 * reasoning in a draft while the stream runs (passed on to the SDK unchanged),
 * the reply's save at `onFinish` replacing the draft in one transaction, and a
 * reply cut off by a closed tab kept as an interrupted draft.
 */
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { persistChat } from '../../src/ai-sdk/index.js';
import { MAX_RECORD_SIZE, type StoreChange } from '../../src/index.js';
import { closeStores, key, storeOn } from '../ai-sdk/stores.js';

afterEach(closeStores);

const reply: UIMessageChunk[] = [
  { type: 'start', messageId: 'a1' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Greet ' },
  { type: 'reasoning-delta', id: 'r', delta: 'back.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello' },
  { type: 'text-delta', id: 't', delta: ', Ada' },
  { type: 'text-end', id: 't' },
  { type: 'finish' },
];

/** A transport whose stream the test feeds chunk by chunk. */
function manualTransport(): { transport: ChatTransport<UIMessage>; push(chunk: UIMessageChunk): void; end(): void } {
  let controller!: ReadableStreamDefaultController<UIMessageChunk>;
  const stream = new ReadableStream<UIMessageChunk>({
    start: (c) => {
      controller = c;
    },
  });
  return {
    transport: { sendMessages: async () => stream, reconnectToStream: async () => null },
    push: (chunk) => controller.enqueue(chunk),
    end: () => controller.close(),
  };
}

const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi!' }] };
const answer: UIMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [
    { type: 'reasoning', text: 'Greet back.' },
    { type: 'text', text: 'Hello, Ada' },
  ],
};

async function send(chat: ReturnType<typeof persistChat>, transport: ChatTransport<UIMessage>) {
  const stream = await chat.transport(transport).sendMessages({
    trigger: 'submit-message',
    chatId: key.sessionId,
    messageId: undefined,
    messages: [question],
    abortSignal: undefined,
  });
  return stream.getReader();
}

it('passes the stream on unchanged, keeps the reply in a draft as it streams, and its save replaces the draft at once', async () => {
  const store = storeOn(new IDBFactory());
  const chat = persistChat(store, key);
  const { transport, push, end } = manualTransport();
  const reader = await send(chat, transport);
  const passed: UIMessageChunk[] = [];
  for (const chunk of reply.slice(0, 8)) {
    push(chunk);
    passed.push((await reader.read()).value as UIMessageChunk);
  }
  await expect
    .poll(async () => (await store.drafts.list(key)).map((d) => [d.customMetadata, d.content.parts]), { timeout: 2000 })
    .toEqual([[{ messageId: 'a1' }, [{ text: 'Greet back.', thought: true }, { text: 'Hello, Ada' }]]]);
  for (const chunk of reply.slice(8)) push(chunk);
  end();
  for (let next = await reader.read(); !next.done; next = await reader.read()) passed.push(next.value);
  expect(passed).toEqual(reply);

  const heard: StoreChange[] = [];
  store.subscribe(key, (change) => heard.push(change));
  await chat.onFinish({ message: answer });
  expect(await store.drafts.list(key)).toEqual([]);
  expect(await persistChat(store, key).load()).toEqual([question, answer]);
  await expect.poll(() => heard.at(-1)).toMatchObject({ type: 'appended', eventIds: ['a1'] });
  expect(heard.at(-1)?.draftId).toBeDefined();
});

it('keeps a reply cut off by a closed tab as an interrupted draft, which drafts.keep turns into a message', async () => {
  const indexedDB = new IDBFactory();
  const store = storeOn(indexedDB);
  const chat = persistChat(store, key);
  const { transport, push } = manualTransport();
  const reader = await send(chat, transport);
  for (const chunk of reply.slice(0, 7)) {
    push(chunk);
    await reader.read();
  }
  await expect.poll(async () => (await store.drafts.list(key)).length).toBe(1);
  // The tab goes mid-reply: its store writes what the draft held as it closes.
  await store.close();

  const later = storeOn(indexedDB);
  const [draft] = await later.drafts.list(key);
  expect([draft?.interrupted, draft?.content.parts]).toEqual([
    true,
    [{ text: 'Greet back.', thought: true }, { text: 'Hello' }],
  ]);
  const session = await later.getOrCreateSession(key);
  await later.drafts.keep({ session, draftId: draft?.id as string });
  const messages = await persistChat(later, key).load();
  expect(messages.map((m) => [m.role, m.parts.map((p) => ('text' in p ? p.text : p.type))])).toEqual([
    ['user', ['Hi!']],
    ['assistant', ['Greet back.', 'Hello']],
  ]);
});

it('lets the draft of a reply the SDK finished empty (a failed request) go, interrupted, storing no event', async () => {
  const store = storeOn(new IDBFactory());
  const chat = persistChat(store, key);
  const { transport, push } = manualTransport();
  const reader = await send(chat, transport);
  for (const chunk of reply.slice(0, 3)) {
    push(chunk);
    await reader.read();
  }
  await chat.onFinish({ message: { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }] } });
  const [draft] = await store.drafts.list(key);
  expect([draft?.interrupted, draft?.content.parts]).toEqual([true, [{ text: 'Greet ', thought: true }]]);
  expect((await store.getSession(key))?.events.map((e) => e.id)).toEqual(['u1']);
});

it('keeps the draft a prefix of the reply when it refuses a delta (larger than one write), and passes the stream on', async () => {
  const store = storeOn(new IDBFactory());
  const chat = persistChat(store, key);
  const { transport, push } = manualTransport();
  const reader = await send(chat, transport);
  const huge = 'x'.repeat(MAX_RECORD_SIZE);
  const chunks: UIMessageChunk[] = [
    { type: 'start', messageId: 'a1' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Hello' },
    { type: 'text-delta', id: 't', delta: huge },
    { type: 'text-delta', id: 't', delta: ', Ada' },
  ];
  for (const chunk of chunks) {
    push(chunk);
    expect((await reader.read()).value).toEqual(chunk);
  }
  // Nothing after the refused delta is written: a later one would leave a hole where it was.
  await expect
    .poll(async () => (await store.drafts.list(key)).map((d) => d.content.parts), { timeout: 2000 })
    .toEqual([[{ text: 'Hello' }]]);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect((await store.drafts.list(key)).map((d) => d.content.parts)).toEqual([[{ text: 'Hello' }]]);
});
