/**
 * A `UIMessage` as one ADK event and back. The event's `content` holds the
 * ADK parts an agent or ADK tooling can read; `customMetadata.aiSdk` holds
 * what ADK has no field for (the message's role and metadata, each part's
 * other fields, parts without an ADK equivalent), so the round trip is exact.
 * Events written by ADK itself (no `aiSdk` record) are read generically.
 */
import type { UIMessage } from 'ai';
import * as z from 'zod/mini';
import { withoutRewound } from '../index.js';
import type { Event, Part } from '../types.js';
import { type PartRest, partFromAdk, partToAdk, type UIPart } from './parts.js';

/** The `customMetadata` key under which an event keeps what ADK has no field for (role, metadata, parts' other fields). */
export const AI_SDK_METADATA_KEY = 'aiSdk';

/** What the store holds beside the ADK parts; checked on the way out, since any app may have written the event. */
const recordSchema = z.object({
  v: z.literal(1),
  role: z.enum(['system', 'user', 'assistant']),
  metadata: z.optional(z.unknown()),
  parts: z.array(z.looseObject({ type: z.string() })),
  /** How many ADK parts each UI part became, in order. */
  counts: z.array(z.number().check(z.int(), z.nonnegative())),
  /** The message's id where the event's differs: an edited message is a new event (see `persistChat`). */
  id: z.optional(z.string()),
});

/** How `messageToEvent` fills the event fields a `UIMessage` lacks. */
export interface ToEventOptions {
  /** Epoch ms (default `Date.now()`). */
  timestamp?: number;
  /** ADK's `invocationId`: the turn the message belongs to (default the message id). */
  invocationId?: string;
  /** Author of assistant messages (default `'assistant'`); user messages are by `'user'`. */
  author?: string;
  /**
   * The event's id (default the message id). Another id keeps the message's in the event's record,
   * so `eventToMessage` still gives the message its own: an edited message is stored so, as a new
   * event beside the one it replaces.
   */
  eventId?: string;
}

/** A `UIMessage` as one ADK event (`id` the message id); `eventToMessage` gives it back exactly. */
export function messageToEvent(message: UIMessage, options: ToEventOptions = {}): Event {
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
  if (message.metadata !== undefined) record.metadata = message.metadata;
  const id = options.eventId ?? message.id;
  if (id !== message.id) record.id = message.id;
  return {
    id,
    invocationId: options.invocationId ?? id,
    author: message.role === 'assistant' ? (options.author ?? 'assistant') : message.role,
    timestamp: options.timestamp ?? Date.now(),
    content: { role: message.role === 'assistant' ? 'model' : 'user', parts: adk },
    customMetadata: { [AI_SDK_METADATA_KEY]: record },
  };
}

/** The `UIMessage` an event holds: exactly the one `messageToEvent` stored, or one read from an event ADK wrote. */
export function eventToMessage(event: Event): UIMessage {
  const found = recordSchema.safeParse(event.customMetadata?.[AI_SDK_METADATA_KEY]);
  const adk = event.content?.parts ?? [];
  if (!found.success || found.data.counts.length !== found.data.parts.length) return adkEventToMessage(event);
  const { role, metadata, parts, counts } = found.data;
  let at = 0;
  const message: UIMessage = {
    id: found.data.id ?? event.id,
    role,
    parts: parts.map((rest, i) => {
      const n = counts[i] as number;
      const part = partFromAdk(rest as PartRest, adk.slice(at, at + n));
      at += n;
      return part;
    }),
  };
  if (metadata !== undefined) message.metadata = metadata;
  return message;
}

/** An event ADK wrote: its text, thoughts, calls, responses and files, as the SDK would show them. */
export function adkEventToMessage(event: Event): UIMessage {
  const parts: UIPart[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.text !== undefined) parts.push({ type: part.thought ? 'reasoning' : 'text', text: part.text });
    const call = part.functionCall;
    if (call) {
      parts.push({
        type: 'dynamic-tool',
        toolName: call.name ?? '',
        toolCallId: call.id ?? '',
        state: 'input-available',
        input: call.args ?? {},
      });
    }
    const response = part.functionResponse;
    if (response) {
      parts.push({
        type: 'dynamic-tool',
        toolName: response.name ?? '',
        toolCallId: response.id ?? '',
        state: 'output-available',
        input: undefined,
        output: response.response ?? {},
      });
    }
    const inline = part.inlineData;
    if (inline?.data !== undefined) {
      const mediaType = inline.mimeType ?? 'application/octet-stream';
      parts.push({ type: 'file', mediaType, url: `data:${mediaType};base64,${inline.data}` });
    }
    const file = part.fileData;
    if (file?.fileUri !== undefined) {
      parts.push({ type: 'file', mediaType: file.mimeType ?? 'application/octet-stream', url: file.fileUri });
    }
  }
  return { id: event.id, role: event.author === 'user' ? 'user' : 'assistant', parts };
}

/**
 * A session's current conversation as `UIMessage`s, synchronously: its events
 * as stored, without what a rewind undid (`withoutRewound`: an edited
 * message's or a regenerated reply's old alternative, see `persistChat`). A function
 * response ADK stored as an event of its own joins the call it answers. A file
 * `persistChat` stored as an artifact keeps its `indexeddb://` URL here, which
 * no browser can show and the SDK will not send: hand `useChat` what
 * `persistChat(…).messages(events)` or `load()` gives (files as `data:` URLs),
 * or `useStoredChat`'s messages.
 */
export function eventsToMessages(events: readonly Event[]): UIMessage[] {
  return conversationToMessages(withoutRewound(events));
}

/** `eventsToMessages` of a conversation already without what rewinds undid (`withoutRewound`'s). */
export function conversationToMessages(shown: readonly Event[]): UIMessage[] {
  const messages: UIMessage[] = [];
  const calls = new Map<string, Record<string, unknown>>();
  for (const event of shown) {
    const message = eventToMessage(event);
    if (event.customMetadata?.[AI_SDK_METADATA_KEY] !== undefined) {
      messages.push(message);
      continue;
    }
    message.parts = message.parts.filter((part) => {
      if (part.type !== 'dynamic-tool') return true;
      const call = calls.get(part.toolCallId);
      if (call && part.state === 'output-available') {
        call.state = 'output-available';
        call.output = part.output;
        return false;
      }
      calls.set(part.toolCallId, part as Record<string, unknown>);
      return true;
    });
    if (message.parts.length > 0) messages.push(message);
  }
  return messages;
}

/** The id of the message `event` holds: its own, or the one an edited message keeps in its record. */
export function messageIdOf(event: Event): string {
  const record = event.customMetadata?.[AI_SDK_METADATA_KEY];
  const id = typeof record === 'object' && record !== null ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : event.id;
}
