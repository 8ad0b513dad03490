/**
 * Sealing in a real browser: the sealing suite (test/contract/seal.ts) through a dedicated
 * worker, and a tab closed mid-turn: ADK's Runner is cut off while a tool runs (its worker
 * terminated, as closing the tab does), a new tab seals the session, and the next turn succeeds
 * with a model that, like a real one, refuses a history with a call no response answers.
 */
import {
  BaseLlm,
  type BaseLlmConnection,
  FunctionTool,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
  Runner,
} from '@google/adk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdkSessionService } from '../../src/adk/index.js';
import { describeSeal } from '../contract/seal.js';
import { dedicatedClient, uniqueDbName } from './helpers.js';

describeSeal('a client of a dedicated worker', () => dedicatedClient(uniqueDbName('seal')).client);

/** The ids of the calls in `request` that no later response answers. */
function unanswered(request: LlmRequest): string[] {
  const open = new Set<string>();
  for (const content of request.contents) {
    for (const part of content.parts ?? []) {
      if (part.functionCall?.name) open.add(part.functionCall.name + (part.functionCall.id ?? ''));
      if (part.functionResponse?.name) open.delete(part.functionResponse.name + (part.functionResponse.id ?? ''));
    }
  }
  return [...open];
}

/** Calls `wait` on the first user message, answers in text after; refuses what a real model API refuses. */
class StrictModel extends BaseLlm {
  readonly requests: LlmRequest[] = [];
  constructor() {
    super({ model: 'strict' });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const dangling = unanswered(request);
    if (dangling.length > 0) throw new Error(`400: function calls without a response: ${dangling.join(', ')}`);
    this.requests.push(structuredClone(request.contents) as never);
    const last = request.contents.at(-1)?.parts?.[0]?.text ?? '';
    yield last.includes('wait')
      ? { content: { role: 'model', parts: [{ functionCall: { id: 'w1', name: 'wait', args: {} } }] } }
      : { content: { role: 'model', parts: [{ text: 'done' }] }, turnComplete: true };
  }
  async connect(): Promise<BaseLlmConnection> {
    throw new Error('no live mode');
  }
}

describe('a tab closed mid-turn, then sealed', () => {
  it('the next Runner turn succeeds once the session is sealed', async () => {
    const dbName = uniqueDbName('seal-runner');
    const key = { appName: 'app', userId: 'u', sessionId: 's' };
    const model = new StrictModel();
    const never = new Promise<never>(() => {});
    const agent = new LlmAgent({
      name: 'assistant',
      model,
      tools: [
        new FunctionTool({ name: 'wait', description: 'Waits.', parameters: z.object({}), execute: () => never }),
      ],
    });

    // The first tab: the turn stops while its tool runs, and the tab goes.
    const first = dedicatedClient(dbName);
    const firstRunner = new Runner({
      appName: key.appName,
      agent,
      sessionService: new AdkSessionService(first.client),
    });
    await first.client.createSession(key);
    const turn = firstRunner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: { role: 'user', parts: [{ text: 'please wait' }] },
    });
    for (;;) {
      const { value, done } = await turn.next();
      if (done || value.content?.parts?.some((p) => p.functionCall)) break;
    }
    await until(async () => (await first.client.getSession(key))?.events.length === 2);
    first.worker.terminate();

    // A model that refuses a dangling call is what makes sealing needed.
    expect(
      unanswered({ contents: [{ role: 'model', parts: [{ functionCall: { id: 'x', name: 'f' } }] }] } as never),
    ).toEqual(['fx']);

    // The next tab seals the session, then runs the next turn.
    const second = dedicatedClient(dbName);
    const sealed = await second.client.sealInterrupted(key);
    expect(sealed).toHaveLength(1);
    expect(sealed[0]).toMatchObject({
      author: 'assistant',
      errorCode: 'INVOCATION_ABORTED',
      content: {
        role: 'user',
        parts: [
          { functionResponse: { id: 'w1', name: 'wait', response: { error: 'Invocation was aborted by client.' } } },
        ],
      },
    });
    const runner = new Runner({ appName: key.appName, agent, sessionService: new AdkSessionService(second.client) });
    const texts: string[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: 's',
      newMessage: { role: 'user', parts: [{ text: 'hello again' }] },
    })) {
      for (const part of event.content?.parts ?? []) if (part.text) texts.push(part.text);
    }
    expect(texts).toEqual(['done']);
    expect(JSON.stringify(model.requests.at(-1))).toContain('Invocation was aborted by client.');
    expect(await second.client.sealInterrupted(key)).toEqual([]);
    await second.client.close();
  });
});

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
