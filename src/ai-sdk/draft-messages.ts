/**
 * A chat's reply drafts as the messages a chat UI shows: each draft (a reply
 * streaming in this tab or another, or one left interrupted) is the assistant
 * message it is for, its parts as far as they were stored, marked in its
 * metadata (`replyDraftOf`) so the UI can show it growing, or cut off with
 * "keep" and "drop". A draft continuing a stored message (a reply going on
 * after a tool's result) shows as that message with the draft's parts after
 * its own; any other sits where the conversation was when it began.
 */
import type { UIMessage } from 'ai';
import { INTERRUPTED_TOOL_ERROR } from '../core/interrupted-tool.js';
import { isPlainObject } from '../core/json.js';
import type { Draft, Event } from '../index.js';
import { conversationToMessages, messageIdOf } from './messages.js';
import { isToolPart } from './parts.js';
import { draftMessageId } from './streaming.js';

/** The key of a message's `metadata` under which `persistChat` marks a reply from a draft (see `ReplyDraft`). */
export const REPLY_DRAFT_KEY = 'replyDraft';

/** How a message stands that is, or was, a reply stored as it streamed: `replyDraftOf(message)`. */
export interface ReplyDraft {
  /** The draft's id (`store.drafts`). */
  draftId: string;
  /**
   * `'streaming'`: a tab is writing it now (this one or another); `'interrupted'`: the tab that
   * streamed it closed, crashed or reloaded first, and the reply can be kept (`keepDraft`),
   * dropped (`dropDraft`) or resumed (`useChat`'s `resumeStream`, where the server can);
   * `'kept'`: a cut-off reply kept as a message (its event is marked `interrupted`).
   */
  state: 'streaming' | 'interrupted' | 'kept';
}

/** The mark on `message` of the reply draft it shows or was kept from; `undefined` for any other message. */
export function replyDraftOf(message: Pick<UIMessage, 'metadata'>): ReplyDraft | undefined {
  const mark = isPlainObject(message.metadata) ? message.metadata[REPLY_DRAFT_KEY] : undefined;
  if (!isPlainObject(mark) || typeof mark.draftId !== 'string') return undefined;
  const { state } = mark;
  return state === 'streaming' || state === 'interrupted' || state === 'kept'
    ? { draftId: mark.draftId, state }
    : undefined;
}

/** `metadata` with `mark` added (metadata that is not an object is replaced). */
export const withMark = (metadata: unknown, mark: ReplyDraft): Record<string, unknown> => ({
  ...(isPlainObject(metadata) ? metadata : {}),
  [REPLY_DRAFT_KEY]: mark,
});

/** `part` answered with `INTERRUPTED_TOOL_ERROR` if it is a tool call still waiting for its result. */
function closed(part: UIMessage['parts'][number]): UIMessage['parts'][number] {
  if (!isToolPart(part.type)) return part;
  const tool = part as { state?: string; input?: unknown };
  if (tool.state !== 'input-streaming' && tool.state !== 'input-available') return part;
  return { ...part, state: 'output-error', input: tool.input, errorText: INTERRUPTED_TOOL_ERROR } as typeof part;
}

/**
 * The message `draft` is for, marked `state`: after the parts of `base` (the stored message it
 * continues) if given. A cut-off reply (interrupted or kept) has its unanswered tool calls closed.
 */
export function draftMessage(draft: Draft, state: ReplyDraft['state'], base?: UIMessage): UIMessage {
  const id = draftMessageId(draft) ?? draft.id;
  const event: Event = { id, author: draft.author, timestamp: draft.startedAt, content: draft.content };
  const parts = conversationToMessages([event])[0]?.parts ?? [];
  return {
    id,
    role: 'assistant',
    parts: [...(base?.parts ?? []), ...(state === 'streaming' ? parts : parts.map(closed))],
    metadata: withMark(base?.metadata, { draftId: draft.id, state }),
  };
}

/**
 * `shown` (the messages of `events`) with the drafts by `author` in them. Read `drafts` after
 * `events`: a draft still there was not finished when the events were read, so its reply is
 * never shown twice.
 */
export function withDrafts<M extends UIMessage>(
  shown: readonly M[],
  events: readonly Event[],
  drafts: readonly Draft[],
  author: string,
): M[] {
  const times = new Map(events.map((event) => [messageIdOf(event), event.timestamp]));
  const messages = [...shown];
  for (const draft of drafts) {
    if (draft.author !== author) continue;
    const state = draft.interrupted ? 'interrupted' : 'streaming';
    const id = draftMessageId(draft) ?? draft.id;
    const at = messages.findIndex((message) => message.id === id);
    if (at >= 0) {
      messages[at] = draftMessage(draft, state, messages[at]) as M;
      continue;
    }
    let place = messages.length;
    while (place > 0 && (times.get((messages[place - 1] as M).id) ?? 0) > draft.startedAt) place--;
    messages.splice(place, 0, draftMessage(draft, state) as M);
  }
  return messages;
}
