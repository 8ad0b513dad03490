/**
 * ADK's Runner streaming (`streamingMode: SSE`) through `AdkSessionService.draftsPlugin`: each
 * reply is in a draft while it streams, and what is stored afterwards is what a run without
 * streaming stores (differential, field by field but ids and times). A run that fails mid-reply
 * leaves the reply as an interrupted draft, never as an event.
 */
import {
  BaseLlm,
  type BaseLlmConnection,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
  Runner,
  StreamingMode,
} from '@google/adk';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { AdkSessionService } from '../../../src/adk/index.js';
import { type Draft, type Event, IndexedDbSessionService } from '../../../src/index.js';

const key = { appName: 'chat', userId: 'ada', sessionId: 'today' };
const opened: IndexedDbSessionService[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Replies given whole, or (when the Runner streams) as chunks of a few characters, then whole. */
class ChunkingModel extends BaseLlm {
  private next = 0;
  readonly requests: unknown[] = [];

  constructor(
    private readonly replies: LlmResponse[],
    /** Called between chunks: what a reader sees of the reply streaming. */
    private readonly between: () => Promise<void>,
    private readonly failAfterChunks?: number,
  ) {
    super({ model: 'chunking' });
  }

  async *generateContentAsync(request: LlmRequest, stream?: boolean): AsyncGenerator<LlmResponse, void> {
    this.requests.push(JSON.parse(JSON.stringify(request.contents)));
    const reply = this.replies[this.next++] as LlmResponse;
    if (stream) {
      for (const part of reply.content?.parts ?? []) {
        for (let at = 0; at < (part.text ?? '').length; at += 4) {
          yield { content: { role: 'model', parts: [{ ...part, text: part.text?.slice(at, at + 4) }] }, partial: true };
          await this.between();
          if (this.failAfterChunks !== undefined && at / 4 + 1 >= this.failAfterChunks)
            throw new Error('the model connection dropped');
        }
      }
    }
    yield structuredClone(reply);
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error('no live mode');
  }
}

const replies: LlmResponse[] = [
  {
    content: {
      role: 'model',
      parts: [{ text: 'The user asks about tides.', thought: true }, { text: 'High tide is at 6:40 this evening.' }],
    },
    turnComplete: true,
  },
  { content: { role: 'model', parts: [{ text: 'Low tide follows about six hours later.' }] }, turnComplete: true },
];

function storeOn(indexedDB = new IDBFactory()): IndexedDbSessionService {
  const store = new IndexedDbSessionService({ indexedDB, IDBKeyRange, dbName: 'streaming' });
  opened.push(store);
  return store;
}

/** Asks `question` of an agent on `model` through a Runner on `store`, with the drafts plugin; resolves when the run ends. */
async function ask(
  store: IndexedDbSessionService,
  model: ChunkingModel,
  question: string,
  options: { streamed?: boolean; abortSignal?: AbortSignal } = {},
): Promise<void> {
  const service = new AdkSessionService(store);
  const agent = new LlmAgent({ name: 'tides', model, instruction: 'Answer briefly.' });
  const runner = new Runner({ appName: key.appName, agent, sessionService: service, plugins: [service.draftsPlugin] });
  for await (const _ of runner.runAsync({
    userId: key.userId,
    sessionId: key.sessionId,
    newMessage: { role: 'user', parts: [{ text: question }] },
    ...(options.streamed === false ? {} : { runConfig: { streamingMode: StreamingMode.SSE } }),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
  })) {
    // What was stored is read from the store afterwards.
  }
}

async function run(streamed: boolean): Promise<{ events: Event[]; requests: unknown[]; seen: string[][] }> {
  const store = storeOn();
  const seen: string[][] = [];
  const text = (d: Draft) => d.content.parts?.map((p) => p.text).join('') ?? '';
  let chunks = 0;
  const model = new ChunkingModel(replies, async () => {
    // Now and then, what another tab would read, once the write a crash may not lose has happened.
    if (++chunks % 6 !== 5) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
    seen.push((await store.drafts.list(key)).map(text));
  });
  await store.createSession(key);
  for (const question of ['When is high tide?', 'And low tide?']) await ask(store, model, question, { streamed });
  expect(await store.drafts.list(key)).toEqual([]);
  const events = (await store.getSession(key))?.events ?? [];
  return { events, requests: model.requests, seen };
}

/** An event as compared: what it says, not its id, time or invocation. */
const said = ({ id, timestamp, invocationId, ...rest }: Event) => rest;

it('stores after a streamed run what a run without streaming stores, each reply a draft while it streams', async () => {
  const streamed = await run(true);
  const whole = await run(false);
  expect(streamed.events.map(said)).toEqual(whole.events.map(said));
  expect(streamed.events.map((e) => e.author)).toEqual(['user', 'tides', 'user', 'tides']);
  expect(streamed.requests).toEqual(whole.requests);
  // While streaming, another reader saw each reply grow in its draft (reasoning first, then the answer).
  const full = replies.map((r) => r.content?.parts?.map((p) => p.text).join('') ?? '');
  const reply = (drafts: string[]) => full.findIndex((f) => drafts.length === 1 && f.startsWith(drafts[0] ?? '-'));
  expect(streamed.seen.map(reply)).not.toContain(-1);
  expect(new Set(streamed.seen.map(reply))).toEqual(new Set([0, 1]));
  expect(streamed.seen.every(([text]) => (text?.length ?? 0) > 0)).toBe(true);
  expect(whole.seen).toEqual([]);
});

it('stores the error event of a reply whose stream failed, as without streaming, and keeps what streamed as an interrupted draft', async () => {
  const store = storeOn();
  const model = new ChunkingModel(replies.slice(1), async () => {}, 3);
  await store.createSession(key);
  // ADK turns the model's failure into an error event.
  await ask(store, model, 'And low tide?');
  const events = (await store.getSession(key))?.events ?? [];
  expect(events.map((e) => [e.author, e.errorMessage, e.content?.parts])).toEqual([
    ['user', undefined, [{ text: 'And low tide?' }]],
    ['tides', 'the model connection dropped', undefined],
  ]);
  const [draft, ...none] = await store.drafts.list(key);
  expect(none).toEqual([]);
  expect([draft?.interrupted, draft?.author, draft?.content.parts]).toEqual([
    true,
    'tides',
    [{ text: 'Low tide fol' }],
  ]);
});

it('keeps what streamed of a run stopped with abortSignal as an interrupted draft', async () => {
  const store = storeOn();
  const stop = new AbortController();
  let chunks = 0;
  const model = new ChunkingModel(replies.slice(1), async () => {
    if (++chunks === 3) stop.abort();
  });
  await store.createSession(key);
  await ask(store, model, 'And low tide?', { abortSignal: stop.signal });
  const [draft] = await store.drafts.list(key);
  expect([draft?.interrupted, draft?.content.parts?.[0]?.text?.startsWith('Low tide')]).toEqual([true, true]);
  expect((await store.getSession(key))?.events.map((e) => e.author)).toEqual(['user']);
});
