/**
 * A STAND-IN FOR GEMINI: a scripted model, so the example runs offline, with no key,
 * and the same message always gets the same answer. To use a real model, give the
 * agent `model: new Gemini({ model: 'gemini-2.5-flash', apiKey })` (from `@google/adk`)
 * instead; a key in a page is public, so serve it through a proxy of your own.
 *
 * The script: "send 30 to Bob" calls `transfer_money`, a message that mentions the
 * balance calls `check_balance`, and once a tool has answered it says what happened.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

const SEND = /\bsend\s+(\d+)\s+to\s+(\p{L}[\p{L}'-]{0,39})/iu;

const say = (text: string): LlmResponse => ({ content: { role: 'model', parts: [{ text }] }, turnComplete: true });

const call = (name: string, args: Record<string, unknown>): LlmResponse => ({
  content: { role: 'model', parts: [{ functionCall: { name, args } }] },
});

export class ScriptedModel extends BaseLlm {
  constructor() {
    super({ model: 'scripted-stand-in-for-gemini' });
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const last = request.contents.at(-1);
    const answer = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (answer) {
      const result = (answer.response ?? {}) as { error?: string; sent?: number; to?: string; balance?: number };
      if (result.error) yield say(`Not done: ${result.error}`);
      else if (answer.name === 'transfer_money')
        yield say(`Sent ${result.sent} to ${result.to}. Your balance is ${result.balance}.`);
      else yield say(`Your balance is ${result.balance}.`);
      return;
    }
    const text = (last?.parts ?? []).map((part) => part.text ?? '').join(' ');
    const send = SEND.exec(text);
    if (send) yield call('transfer_money', { to: send[2], amount: Number(send[1]) });
    else if (/balance/i.test(text)) yield call('check_balance', {});
    else yield say('I can check your balance ("what is my balance?") and send money ("send 30 to Bob").');
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error('the scripted model has no live mode');
  }
}
