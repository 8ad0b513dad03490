/**
 * The demo's ADK agent: Google ADK's own `LlmAgent` and `Runner`, on this store
 * through the `/adk` adapter, with a deterministic offline model. Loaded only when
 * the user picks it (ADK is most of a megabyte). Its transfer tool needs the
 * user's confirmation, so the page shows ADK's human-in-the-loop flow.
 *
 * State it writes: `app:transfers_total` (every user), `user:last_transfer`.
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
import { z } from 'zod';
import { AdkSessionService } from '../src/adk/index.js';
import type { Session, SessionStore } from '../src/index.js';
import { CONFIRMATION_CALL } from './confirmation.js';

export const ADK_AGENT_NAME = 'adk_assistant';

const SEND = /\bsend\s+(\d+(?:\.\d+)?)\s+to\s+(\p{L}[\p{L}\p{N}'-]{0,39})/iu;
const ADD = /\badd\s+(-?\d+(?:\.\d+)?)\s+and\s+(-?\d+(?:\.\d+)?)/i;

const HELP =
  'I am an ADK LlmAgent on an offline model. I add numbers ("add 2 and 3") and send money ("send 5 to Bob"), which waits for your approval.';

function say(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] }, turnComplete: true };
}

function call(name: string, args: Record<string, unknown>): LlmResponse {
  return { content: { role: 'model', parts: [{ functionCall: { name, args } }] } };
}

/** What the model says once a tool has answered. */
function summary(name: string | undefined, response: Record<string, unknown> | undefined): string {
  if (typeof response?.error === 'string') return `Not done: ${response.error}`;
  if (name === 'transfer_money') return `Sent ${String(response?.sent)} to ${String(response?.to)}.`;
  if (name === 'add') return `That makes ${String(response?.result)}.`;
  return 'Done.';
}

/** A model that needs no network: the same message always gets the same answer. */
class OfflineModel extends BaseLlm {
  constructor() {
    super({ model: 'offline-demo-model' });
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const last = request.contents.at(-1);
    const answered = last?.parts?.find((p) => p.functionResponse)?.functionResponse;
    if (answered) {
      yield say(summary(answered.name, answered.response as Record<string, unknown> | undefined));
      return;
    }
    const text = (last?.parts ?? []).map((p) => p.text ?? '').join(' ');
    const send = SEND.exec(text);
    const add = ADD.exec(text);
    if (send) yield call('transfer_money', { to: send[2], amount: Number(send[1]) });
    else if (add) yield call('add', { a: Number(add[1]), b: Number(add[2]) });
    else yield say(HELP);
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error('the offline demo model has no live mode');
  }
}

const transferMoney = new FunctionTool({
  name: 'transfer_money',
  description: 'Sends money to someone. Asks the user first.',
  parameters: z.object({ to: z.string(), amount: z.number() }),
  requireConfirmation: true,
  execute: ({ to, amount }, context) => {
    if (!context) throw new Error('transfer_money needs a tool context');
    const total = Number(context.state.get('app:transfers_total') ?? 0) + amount;
    context.state.set('app:transfers_total', total);
    context.state.set('user:last_transfer', { to, amount });
    return { sent: amount, to };
  },
});

const add = new FunctionTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ result: a + b }),
});

const agent = new LlmAgent({
  name: ADK_AGENT_NAME,
  model: new OfflineModel(),
  instruction: 'Help the user. Ask before moving money.',
  tools: [transferMoney, add],
});

/** A user message, or the user's answer to a pending confirmation. */
export type AdkInput = { text: string } | { confirm: boolean; callId: string };

/** Runs one ADK invocation on `session`; the Runner reads and appends through the store. */
export async function runAdkTurn(store: SessionStore, session: Session, input: AdkInput): Promise<void> {
  const runner = new Runner({ appName: session.appName, agent, sessionService: new AdkSessionService(store) });
  const newMessage =
    'text' in input
      ? { role: 'user', parts: [{ text: input.text }] }
      : {
          role: 'user',
          parts: [
            { functionResponse: { id: input.callId, name: CONFIRMATION_CALL, response: { confirmed: input.confirm } } },
          ],
        };
  for await (const _event of runner.runAsync({ userId: session.userId, sessionId: session.id, newMessage })) {
    // The Runner stores each event itself; the page redraws from the store's change notices.
  }
}
