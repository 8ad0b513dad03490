/**
 * ADK's human-in-the-loop confirmations, read from stored events: a pending one is
 * an `adk_request_confirmation` call that no later user message has answered. Pure,
 * so the page can show Approve / Reject without loading ADK.
 */
import type { Event } from '../src/index.js';

export const CONFIRMATION_CALL = 'adk_request_confirmation';

export interface PendingConfirmation {
  /** The id of ADK's confirmation call: the user's answer is a function response to it. */
  callId: string;
  /** The tool that waits, and the arguments it would run with. */
  tool: string;
  args: Record<string, unknown>;
}

export function pendingConfirmation(events: readonly Event[]): PendingConfirmation | undefined {
  const parts = events.flatMap((e) => e.content?.parts ?? []);
  const answered = new Set(
    parts.map((p) => p.functionResponse).flatMap((r) => (r?.name === CONFIRMATION_CALL && r.id ? [r.id] : [])),
  );
  for (const part of [...parts].reverse()) {
    const call = part.functionCall;
    if (call?.name !== CONFIRMATION_CALL || !call.id || answered.has(call.id)) continue;
    const original = (call.args?.originalFunctionCall ?? {}) as { name?: unknown; args?: unknown };
    return {
      callId: call.id,
      tool: typeof original.name === 'string' ? original.name : 'a tool',
      args:
        typeof original.args === 'object' && original.args !== null ? (original.args as Record<string, unknown>) : {},
    };
  }
  return undefined;
}
