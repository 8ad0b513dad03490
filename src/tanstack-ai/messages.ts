/**
 * A TanStack AI `UIMessage` as one ADK event and back. The event's `content`
 * holds the ADK parts an agent or ADK tooling can read; `customMetadata.tanstackAi`
 * holds what ADK has no field for (the role, name and metadata, each part's other
 * fields, parts without an ADK equivalent), so the round trip is exact. Events
 * ADK wrote (no such record), interrupted replies and drafts are read generically,
 * the cut-off ones marked (`isInterrupted`).
 */
import type { MessagePart, UIMessage } from '@tanstack/ai-client';
import * as z from 'zod/mini';
import { INTERRUPTED_TOOL_ERROR } from '../core/interrupted-tool.js';
import type { Draft } from '../index.js';
import type { Event, Part } from '../types.js';
import { adkToPart, type PartRest, partFromAdk, partToAdk } from './parts.js';

/** The `customMetadata` key under which an event keeps what ADK has no field for. */
export const TANSTACK_AI_METADATA_KEY = 'tanstackAi';

/**
 * The `UIMessage.metadata` key that marks a reply cut off before it finished (its
 * tab closed or crashed mid-stream): `{ interrupted: true }`. See `isInterrupted`.
 */
export const STORED_REPLY_KEY = 'idbAdkSessions';

/** What the store holds beside the ADK parts; checked on the way out, since any app may have written the event. */
const recordSchema = z.object({
  v: z.literal(1),
  role: z.enum(['system', 'user', 'assistant']),
  name: z.optional(z.string()),
  metadata: z.optional(z.unknown()),
  parts: z.array(z.looseObject({ type: z.string() })),
  /** How many ADK parts each message part became, in order. */
  counts: z.array(z.number().check(z.int(), z.nonnegative())),
  /** The message had no `createdAt` (the event's timestamp is when it was stored). */
  undated: z.optional(z.literal(true)),
});

/** Whether `message` is a reply cut off before it finished: an interrupted draft or an event stored as interrupted. */
export function isInterrupted(message: Pick<UIMessage, 'metadata'>): boolean {
  const mark: unknown = message.metadata?.[STORED_REPLY_KEY];
  return typeof mark === 'object' && mark !== null && (mark as { interrupted?: unknown }).interrupted === true;
}

/** A `UIMessage` as one ADK event (`id` and `invocationId` the message id); `eventToMessage` gives it back exactly. */
export function messageToEvent(message: UIMessage, author = 'assistant'): Event {
  const adk: Part[] = [];
  const parts: PartRest[] = [];
  const counts: number[] = [];
  for (const part of message.parts) {
    const mapped = partToAdk(part);
    adk.push(...mapped.adk);
    parts.push(mapped.rest);
    counts.push(mapped.adk.length);
  }
  const record: z.input<typeof recordSchema> = { v: 1, role: message.role, parts, counts };
  if (message.name !== undefined) record.name = message.name;
  if (message.metadata !== undefined) record.metadata = message.metadata;
  const dated = message.createdAt instanceof Date && !Number.isNaN(message.createdAt.getTime());
  if (!dated) record.undated = true;
  return {
    id: message.id,
    invocationId: message.id,
    author: message.role === 'assistant' ? author : message.role,
    timestamp: dated ? (message.createdAt as Date).getTime() : Date.now(),
    content: { role: message.role === 'assistant' ? 'model' : 'user', parts: adk },
    customMetadata: { [TANSTACK_AI_METADATA_KEY]: record },
  };
}

/** `message` marked as cut off before it finished. */
const marked = (message: UIMessage): UIMessage => ({
  ...message,
  metadata: { ...message.metadata, [STORED_REPLY_KEY]: { interrupted: true } },
});

/** The parts ADK parts read as, those with no TanStack equivalent left out. */
const genericParts = (parts: readonly Part[] | undefined): MessagePart[] =>
  (parts ?? []).map(adkToPart).filter((part): part is MessagePart => part !== undefined);

/** The `UIMessage` an event holds: exactly the one `messageToEvent` stored, or one read from an event ADK wrote. */
export function eventToMessage(event: Event): UIMessage {
  const found = recordSchema.safeParse(event.customMetadata?.[TANSTACK_AI_METADATA_KEY]);
  const adk = event.content?.parts ?? [];
  if (!found.success || found.data.counts.length !== found.data.parts.length) {
    const role = event.author === 'user' ? 'user' : 'assistant';
    const message: UIMessage = { id: event.id, role, parts: genericParts(adk), createdAt: new Date(event.timestamp) };
    return event.interrupted ? marked(message) : message;
  }
  const { role, name, metadata, parts, counts, undated } = found.data;
  let at = 0;
  const message: UIMessage = {
    id: event.id,
    role,
    parts: parts.map((rest, i) => {
      const n = counts[i] as number;
      const part = partFromAdk(rest as PartRest, adk.slice(at, at + n));
      at += n;
      return part;
    }),
  };
  if (name !== undefined) message.name = name;
  if (metadata !== undefined) message.metadata = metadata as Record<string, unknown>;
  if (!undated) message.createdAt = new Date(event.timestamp);
  return message;
}

/** Whether an event holds a message: not a rewind's or another bookkeeping event with nothing to show. */
export const holdsMessage = (event: Event): boolean =>
  event.customMetadata?.[TANSTACK_AI_METADATA_KEY] !== undefined || genericParts(event.content?.parts).length > 0;

/**
 * An interrupted draft as the partial reply it is, marked (`isInterrupted`); a tool call it made
 * that no result answers gets one, an error (`INTERRUPTED_TOOL_ERROR`): the tab died while the tool ran.
 */
export function draftToMessage(draft: Draft): UIMessage {
  return marked({
    id: draft.id,
    role: 'assistant',
    parts: withCallsAnswered(genericParts(draft.content.parts)),
    createdAt: new Date(draft.startedAt),
  });
}

function withCallsAnswered(parts: MessagePart[]): MessagePart[] {
  const answered = new Set(parts.flatMap((p) => (p.type === 'tool-result' ? [p.toolCallId] : [])));
  return parts.flatMap((part): MessagePart[] => {
    if (part.type !== 'tool-call' || answered.has(part.id)) return [part];
    const answer: MessagePart = {
      type: 'tool-result',
      toolCallId: part.id,
      name: part.name,
      content: JSON.stringify({ error: INTERRUPTED_TOOL_ERROR }),
      state: 'error',
      error: INTERRUPTED_TOOL_ERROR,
    };
    return [part, answer];
  });
}
