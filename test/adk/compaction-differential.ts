/**
 * Compaction differential: ADK's real `Runner` with an `LlmAgent` whose `contextCompactors`
 * summarise the history (adk-js 2.0.0's TokenBasedContextCompactor and LlmSummarizer) plays the
 * same conversation on ADK's `InMemorySessionService` and on this store, read whole and read with
 * `fromLatestCompaction`. The models record every request: they must be the same on each service,
 * so reading from the latest compaction changes nothing the agent sees. Run in Node and Chromium.
 */
import {
  BaseLlm,
  type BaseLlmConnection,
  type BaseSessionService,
  FunctionTool,
  InMemorySessionService,
  isCompactedEvent,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
  LlmSummarizer,
  LogLevel,
  Runner,
  setLogLevel,
  TokenBasedContextCompactor,
} from '@google/adk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const APP = 'compaction-app';
const USER = 'u';
const SESSION = 's';
const T0 = Date.UTC(2025, 0, 1);

/** A model that answers by rule and records what it was asked; it ticks the pinned clock per call. */
class RecordingModel extends BaseLlm {
  readonly requests: unknown[] = [];
  constructor(
    name: string,
    private readonly answer: (request: LlmRequest, n: number) => LlmResponse,
  ) {
    super({ model: name });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    vi.setSystemTime(Date.now() + 1);
    this.requests.push(
      JSON.parse(JSON.stringify({ contents: request.contents, instruction: request.config?.systemInstruction })),
    );
    yield this.answer(request, this.requests.length);
  }
  async connect(): Promise<BaseLlmConnection> {
    throw new Error('no live mode');
  }
}

const lastText = (request: LlmRequest): string => {
  const parts = request.contents.at(-1)?.parts ?? [];
  return parts.map((p) => p.text ?? (p.functionResponse ? `response:${p.functionResponse.name}` : '')).join('');
};

/** Turns: user texts. "look up" makes the model call the tool first. */
const TURNS = [
  'hello',
  'tell me about birds',
  'look up the weather',
  'and boats?',
  'look up the tide',
  'what did we say about birds?',
  'thanks',
  'look up the news',
  'bye',
];

export interface Played {
  label: string;
  main: unknown[];
  summaries: unknown[];
  events: Record<string, unknown>[];
}

export async function playCompaction(label: string, service: BaseSessionService): Promise<Played> {
  vi.setSystemTime(T0);
  const main = new RecordingModel('main', (request, n) =>
    lastText(request).includes('look up')
      ? { content: { role: 'model', parts: [{ functionCall: { id: `call-${n}`, name: 'lookup', args: { q: n } } }] } }
      : {
          content: { role: 'model', parts: [{ text: `answer ${n} to ${lastText(request).slice(0, 40)}` }] },
          // Past the threshold: the compactor summarises before the next model call.
          usageMetadata: { promptTokenCount: 500, candidatesTokenCount: 5, totalTokenCount: 505 },
        },
  );
  const summarizer = new RecordingModel('summarizer', (_request, n) => ({
    content: { role: 'model', parts: [{ text: `summary ${n}` }] },
  }));
  const lookup = new FunctionTool({
    name: 'lookup',
    description: 'Looks something up.',
    parameters: z.object({ q: z.number() }),
    execute: async ({ q }) => ({ found: `result ${q}` }),
  });
  const agent = new LlmAgent({
    name: 'assistant',
    model: main,
    instruction: 'Be brief.',
    tools: [lookup],
    contextCompactors: [
      new TokenBasedContextCompactor({
        tokenThreshold: 100,
        eventRetentionSize: 3,
        summarizer: new LlmSummarizer({ llm: summarizer }),
      }),
    ],
  });
  const runner = new Runner({ appName: APP, agent, sessionService: service });
  await service.createSession({ appName: APP, userId: USER, sessionId: SESSION });
  for (const text of TURNS) {
    vi.setSystemTime(Date.now() + 1);
    for await (const _ of runner.runAsync({
      userId: USER,
      sessionId: SESSION,
      newMessage: { role: 'user', parts: [{ text }] },
    })) {
      // Drained: the Runner appends as it goes.
    }
  }
  // Every event, whatever the service reads by default (ADK's own services ignore the extra key).
  const stored = await service.getSession({
    appName: APP,
    userId: USER,
    sessionId: SESSION,
    config: { fromLatestCompaction: false } as object,
  });
  return {
    label,
    main: main.requests,
    summaries: summarizer.requests,
    // As JSON: ADK's objects carry `undefined` fields and a symbol that storage does not keep.
    events: JSON.parse(JSON.stringify(stored?.events ?? [])) as Record<string, unknown>[],
  };
}

export interface CompactionStore {
  label: string;
  /** A fresh service over a fresh database. */
  open(): BaseSessionService & { close?(): Promise<void> };
}

export function describeCompactionDifferential(where: string, stores: () => CompactionStore[]): void {
  describe(`ADK Runner with contextCompactors on this store (${where}) vs on InMemorySessionService`, () => {
    let reference: Played;
    const played: Played[] = [];

    beforeAll(async () => {
      setLogLevel(LogLevel.ERROR);
      vi.useFakeTimers({ toFake: ['Date'] });
      reference = await playCompaction("ADK's InMemorySessionService", new InMemorySessionService());
      for (const store of stores()) {
        const service = store.open();
        played.push(await playCompaction(store.label, service));
        await service.close?.();
      }
    }, 60_000);
    afterAll(() => {
      vi.useRealTimers();
      setLogLevel(LogLevel.INFO);
    });

    it('compacted more than once, with a tool call kept whole, on every service', () => {
      for (const t of [reference, ...played]) {
        const compactions = t.events.filter((e) => isCompactedEvent(e as never));
        expect(compactions.length, t.label).toBeGreaterThanOrEqual(2);
        for (const c of compactions) {
          expect(c, t.label).toMatchObject({ isCompacted: true, author: 'system' });
          expect(typeof c.startTime, t.label).toBe('number');
          expect(typeof c.endTime, t.label).toBe('number');
          expect(c.compactedContent, t.label).toMatch(/^summary \d+$/);
        }
        expect(t.summaries.length, t.label).toBe(compactions.length);
      }
    });

    it('sends the models the same requests on every service', () => {
      expect(reference.main.length).toBeGreaterThan(TURNS.length);
      for (const t of played) {
        expect(t.main, t.label).toEqual(reference.main);
        expect(t.summaries, t.label).toEqual(reference.summaries);
      }
    });

    it('stores the compaction events as ADK made them', () => {
      const strip = (events: Record<string, unknown>[]) =>
        events.filter((e) => isCompactedEvent(e as never)).map(({ id: _id, ...rest }) => rest);
      for (const t of played) expect(strip(t.events), t.label).toEqual(strip(reference.events));
    });
  });
}
