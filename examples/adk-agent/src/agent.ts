/**
 * The agent: ADK's own `LlmAgent` and `Runner`, with its sessions in idb-adk-sessions.
 * `transfer_money` needs the user's confirmation (ADK's `requireConfirmation`): ADK
 * stores an `adk_request_confirmation` call and stops; the user's answer, a function
 * response to that call, runs the tool (or not) in the next turn. Everything is in the
 * store, so a reload in between loses nothing.
 */
import { FunctionTool, LlmAgent, REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, Runner } from '@google/adk';
import type { Event, SessionStore } from 'idb-adk-sessions';
import { AdkSessionService } from 'idb-adk-sessions/adk';
import { z } from 'zod';
import { ScriptedModel } from './model.js';

const balance = (state: { get(key: string): unknown }): number => Number(state.get('balance') ?? 0);

const checkBalance = new FunctionTool({
  name: 'check_balance',
  description: "Reads the user's balance.",
  execute: (_, context) => ({ balance: context ? balance(context.state) : 0 }),
});

const transferMoney = new FunctionTool({
  name: 'transfer_money',
  description: 'Sends money to someone. The user approves each transfer first.',
  parameters: z.object({ to: z.string(), amount: z.number().positive() }),
  requireConfirmation: true,
  execute: ({ to, amount }, context) => {
    if (!context) throw new Error('transfer_money needs a tool context');
    const left = balance(context.state) - amount;
    if (left < 0) return { error: `your balance is ${balance(context.state)}` };
    // A state delta on the tool's event: the store keeps it with the session.
    context.state.set('balance', left);
    return { sent: amount, to, balance: left };
  },
});

export const agent = new LlmAgent({
  name: 'bank_assistant',
  model: new ScriptedModel(),
  instruction: 'Help the user with their account. Ask before moving money.',
  tools: [checkBalance, transferMoney],
});

/** A message from the user, or their answer to a pending confirmation. */
export type TurnInput = { text: string } | { callId: string; confirmed: boolean };

export function createRunner(store: SessionStore, appName: string): Runner {
  return new Runner({ appName, agent, sessionService: new AdkSessionService(store) });
}

/** Runs one turn; the Runner appends every event to the store, and the page redraws from there. */
export async function runTurn(runner: Runner, userId: string, sessionId: string, input: TurnInput): Promise<void> {
  const parts =
    'text' in input
      ? [{ text: input.text }]
      : [
          {
            functionResponse: {
              id: input.callId,
              name: REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
              response: { confirmed: input.confirmed },
            },
          },
        ];
  for await (const _ of runner.runAsync({ userId, sessionId, newMessage: { role: 'user', parts } })) {
    // Each event is already stored.
  }
}

export interface PendingConfirmation {
  callId: string;
  /** The call waiting for the user: the tool and its arguments. */
  tool: string;
  args: Record<string, unknown>;
}

/** The confirmation the session waits for: ADK's request call that no later message has answered. */
export function pendingConfirmation(events: readonly Event[]): PendingConfirmation | undefined {
  const parts = events.flatMap((event) => event.content?.parts ?? []);
  const answered = new Set(
    parts.flatMap(({ functionResponse: r }) =>
      r?.name === REQUEST_CONFIRMATION_FUNCTION_CALL_NAME && r.id ? [r.id] : [],
    ),
  );
  const call = parts
    .map((part) => part.functionCall)
    .findLast((c) => c?.name === REQUEST_CONFIRMATION_FUNCTION_CALL_NAME && c.id && !answered.has(c.id));
  if (!call?.id) return undefined;
  const original = (call.args?.originalFunctionCall ?? {}) as { name?: string; args?: Record<string, unknown> };
  return { callId: call.id, tool: original.name ?? 'a tool', args: original.args ?? {} };
}
