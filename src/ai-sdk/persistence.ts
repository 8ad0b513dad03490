/**
 * Offline history for `useChat`: the chat's messages load from a session, the
 * user's message is stored before its request goes out (so nothing typed is
 * lost when the network is not there), and each finished reply is stored.
 * A message is one event with the message's id: saving it again (a tool result
 * arrived, an approval was given) replaces that event in its place. Editing a
 * message or regenerating a reply branches the chat instead (a `rewind`, then
 * the new message): the old alternative stays stored, and `branches` /
 * `switchBranch` list and bring back each message's alternatives. Every
 * message this hands out, and every one its transport sends, has its files as
 * `data:` URLs: what the SDK can send and a page can show, in any tab.
 * The reply streaming in is stored as it streams, in a draft (./streaming.ts);
 * the chat's messages show it, growing or cut off (./draft-messages.ts), until
 * it is finished, kept (`keepDraft`) or dropped (`dropDraft`).
 */
import type { ChatTransport, UIMessage } from 'ai';
import {
  type AppenderOptions,
  type AppendStore,
  type BranchPoint,
  type BranchStore,
  branchPoints,
  createAppender,
  type Draft,
  DraftNotFoundError,
  type DraftsFront,
  InvalidInputError,
  switchBranch,
  withoutRewound,
} from '../index.js';
import type { Event, Session, SessionKey, SessionService } from '../types.js';
import { draftMessage, withDrafts } from './draft-messages.js';
import { type ArtifactFiles, type FileResolver, fileResolver, filesToArtifacts, hasStoredFiles } from './files.js';
import { conversationToMessages, messageIdOf, messageToEvent } from './messages.js';
import { replyDrafts } from './streaming.js';
import { CHAT_TITLE_KEY, defaultTitle } from './title.js';

/** What `persistChat` needs of a store: appends, reads, `rewind`, and `artifacts` for files (any store has them). */
export type ChatStore = AppendStore &
  Pick<SessionService, 'getOrCreateSession'> &
  BranchStore & {
    artifacts?: ArtifactFiles;
    /** Where the reply streams into as it comes (docs/streaming.md); any store from `openSessionStore` has it. */
    drafts?: Pick<DraftsFront, 'begin' | 'list' | 'resume' | 'drop'>;
  };

/** A message of the chat that has alternatives: it was edited, or it is a reply that was regenerated. */
export interface ChatBranch {
  /** How many alternatives there are, this one included. */
  count: number;
  /** Which of them the chat shows, from 0 (the oldest). */
  index: number;
}

/** How `persistChat` stores a chat: appends (as `createAppender`), the author, where files go, the title. */
export interface ChatPersistenceOptions<M extends UIMessage = UIMessage> extends AppenderOptions {
  /** Author of assistant messages in the stored events (default `'assistant'`). */
  author?: string;
  /**
   * Where inline (`data:` URL) files go: `'artifacts'` (the default where the
   * store has `artifacts`) stores each as an artifact Blob the event points at;
   * `'inline'` keeps it as base64 in the event.
   */
  files?: 'artifacts' | 'inline';
  /**
   * The conversation's title, kept in the session's state under `'title'`
   * (`CHAT_TITLE_KEY`, read with `chatTitle`), so a list of chats
   * (`listSessions`, `useSessions`) can show it without reading events. Made
   * from the first user message stored while the session has none; by default
   * its text, whitespace folded, cut to 80 characters. `false`: no title.
   */
  title?: false | ((message: M) => string | undefined);
}

/** `M`: the app's message type (`InferAgentUIMessage<typeof agent>`, say); stored messages are trusted to be of it. */
export interface ChatPersistence<M extends UIMessage = UIMessage> {
  /**
   * The chat's stored messages, files as `data:` URLs, with the reply streaming in or left
   * interrupted (see `messages`); the session is created if it does not exist yet.
   */
  load(): Promise<M[]>;
  /**
   * The chat's messages from its session's `events` (a `useSession` or
   * `watchSession` value, another tab's change), files as `data:` URLs: what
   * `useChat`'s `setMessages` takes. Each file is read once for the chat's lifetime.
   * With `drafts` (`store.drafts.list`, read *after* the events), a reply being
   * streamed or left interrupted is among them, marked (`replyDraftOf`), and
   * never beside the finished message it becomes.
   */
  messages(events: readonly Event[], drafts?: readonly Draft[]): Promise<M[]>;
  /** Stores `message`, replacing the stored one with its id (the session is created if need be). */
  save(message: M): Promise<void>;
  /**
   * For `useChat({ onFinish })`: stores the finished reply. A reply with nothing
   * in it (the SDK finishes with one when the request failed) is not stored, nor is
   * one whose connection dropped (`isDisconnect`): its draft stays, for `resumeStream` to continue.
   */
  onFinish(event: { message: M; isDisconnect?: boolean }): Promise<void>;
  /**
   * `transport`, storing each new user message before it sends the request,
   * and sending files that point at artifacts (messages from `eventsToMessages`) as `data:` URLs.
   * An edit (`useChat`'s `sendMessage({ text, messageId })`) and a regenerated
   * reply (`regenerate()`) branch the chat: what they replace stays stored as an alternative.
   * Its `reconnectToStream` (`useChat`'s `resumeStream`, `resume: true`) continues the reply's
   * draft without storing any of it twice (docs/chat-ui.md), and resolves `null` while another
   * tab streams the reply.
   */
  transport(transport: ChatTransport<M>): ChatTransport<M>;
  /**
   * Keeps an interrupted reply (a draft `messages` marks `'interrupted'`) as the message it
   * is, cut off: stored in one transaction with the draft removed, its event marked
   * `interrupted`, its message marked `'kept'`. Rejects with `DraftInUseError` while a tab
   * writes the draft, `DraftNotFoundError` once it is gone.
   */
  keepDraft(draftId: string): Promise<void>;
  /** Drops a reply's draft: nothing of it is stored. Resolves whether there was one. */
  dropDraft(draftId: string): Promise<boolean>;
  /**
   * The messages of the chat's current conversation that have alternatives, by message id, from
   * the session's `events` (a live session's, say): a chat UI's "‹ 2 / 3 ›".
   */
  branches(events: readonly Event[]): Map<string, ChatBranch>;
  /**
   * Shows alternative `index` of message `messageId` (see `branches`): the chat as it was when that
   * alternative was left, its later messages and the session's state with it, in every tab.
   * Rejects with `InvalidInputError` when the message has no such alternative.
   */
  switchBranch(messageId: string, index: number): Promise<void>;
}

/** `branchPoints(events)` keyed by the id of the message each point's current event holds. */
function pointsByMessage(events: readonly Event[]): Map<string, BranchPoint> {
  const byId = new Map(events.map((event) => [event.id, event]));
  const points = new Map<string, BranchPoint>();
  for (const [eventId, point] of branchPoints(events)) points.set(messageIdOf(byId.get(eventId) as Event), point);
  return points;
}

/** Keeps the chat `key` names in `store`: its messages as ADK events, its files as artifacts, its title in the state. */
export function persistChat<M extends UIMessage = UIMessage>(
  store: ChatStore,
  key: SessionKey,
  options: ChatPersistenceOptions<M> = {},
): ChatPersistence<M> {
  const author = options.author === undefined ? {} : { author: options.author };
  const artifacts = options.files === 'inline' ? undefined : store.artifacts;
  // Files another tab stored as artifacts are resolved whatever this chat stores its own as.
  const resolve: FileResolver = store.artifacts ? fileResolver(store.artifacts, key) : async (message) => message;
  const title = options.title === false ? undefined : (options.title ?? defaultTitle);
  // The session is made once, before the first save: a chat opened by a live query, not by `load()`, has none yet.
  let created: Promise<Session> | undefined;
  const create = (): Promise<Session> => {
    created ??= store.getOrCreateSession({ ...key });
    created.catch(() => {
      created = undefined;
    });
    return created;
  };
  // The reply streaming now, in a draft its save at `onFinish` finishes (./streaming.ts).
  const reply = replyDrafts(store, create, options.author ?? 'assistant');
  /** Stores the interrupted draft `draftId` as its message, cut off, in the transaction that removes it. */
  const keepDraft = async (draftId: string): Promise<void> => {
    const draft = (await drafts().list({ ...key })).find((d) => d.id === draftId);
    if (!draft) throw new DraftNotFoundError(`keepDraft: no draft ${draftId}`);
    const writer = await drafts().resume({ session: await create(), draftId });
    try {
      const shown = await read();
      const kept = draftMessage(draft, 'kept');
      const base = conversationToMessages(shown).find((m) => m.id === kept.id);
      const message = base ? draftMessage(draft, 'kept', base) : kept;
      const event = messageToEvent(message, { ...author, eventId: eventIds.get(message.id) ?? message.id });
      const session = await store.getSession({ ...key });
      await writer.finish({ event: { ...event, interrupted: true }, ...(session ? { session } : {}) });
    } catch (error) {
      // The draft stays, interrupted, for another try.
      await writer.release();
      throw error;
    }
  };
  const append = createAppender(reply.finishing(store), key, options);
  // The events of the edited messages (whose ids are not the messages') the chat last showed, by message id.
  const eventIds = new Map<string, string>();
  const current = (events: readonly Event[]): Event[] => {
    const shown = withoutRewound(events);
    eventIds.clear();
    for (const event of shown) {
      const id = messageIdOf(event);
      if (id !== event.id) eventIds.set(id, event.id);
    }
    return shown;
  };
  const replyAuthor = options.author ?? 'assistant';
  const messages = async (events: readonly Event[], drafts?: readonly Draft[]) => {
    const shown = current(events);
    const stored = conversationToMessages(shown) as M[];
    return Promise.all((drafts ? withDrafts(stored, shown, drafts, replyAuthor) : stored).map(resolve));
  };
  const drafts = () => {
    if (!store.drafts) throw new InvalidInputError('persistChat: the store has no drafts');
    return store.drafts;
  };
  const read = async (): Promise<Event[]> => current((await store.getSession({ ...key }))?.events ?? []);

  const save = async (message: M, eventId = eventIds.get(message.id) ?? message.id): Promise<void> => {
    await create();
    const options = { ...author, eventId };
    let event: Event;
    if (!artifacts) event = messageToEvent(message, options);
    else {
      const kept = await filesToArtifacts(artifacts, key, message);
      event = messageToEvent(kept.message, options);
      if (Object.keys(kept.delta).length > 0) {
        event.actions = { ...event.actions, artifactDelta: { ...event.actions?.artifactDelta, ...kept.delta } };
      }
    }
    const named = message.role === 'user' ? title?.(message) : undefined;
    await append((session) => {
      // Read from the state this append is checked against: a title another tab just set is kept
      // (one a rewind took back is `null`).
      if (named === undefined || (session.state[CHAT_TITLE_KEY] ?? null) !== null) return event;
      return { ...event, actions: { ...event.actions, stateDelta: { [CHAT_TITLE_KEY]: named } } };
    });
  };
  /** Undoes the stored conversation from position `at` on, keeping it as an alternative. */
  const rewindFrom = async (shown: readonly Event[], at: number): Promise<void> => {
    const from = shown[at]?.invocationId;
    if (from !== undefined) await store.rewind({ ...key, beforeInvocationId: from });
  };
  /** `sent` (a regenerate's messages) ends before stored ones: those are kept as an alternative. */
  const branchReply = async (sent: readonly M[]): Promise<void> => {
    const shown = await read();
    if (shown.length > sent.length && sent.every((m, i) => messageIdOf(shown[i] as Event) === m.id)) {
      await rewindFrom(shown, sent.length);
    }
  };
  /** An edited message: the stored one and what followed it stay as an alternative, and it is a new event. */
  const branchEdit = async (message: M): Promise<void> => {
    const shown = await read();
    const at = shown.findIndex((event) => messageIdOf(event) === message.id);
    if (at < 0) return save(message);
    await rewindFrom(shown, at);
    const eventId = crypto.randomUUID();
    await save(message, eventId);
    eventIds.set(message.id, eventId);
  };

  return {
    async load() {
      await create();
      // Read now, not the session as first made: it may have moved on since. Drafts after events: see `withDrafts`.
      const events = (await store.getSession({ ...key }))?.events ?? [];
      return messages(events, store.drafts ? await store.drafts.list({ ...key }) : undefined);
    },
    messages,
    save: (message) => save(message),
    keepDraft,
    dropDraft: (draftId) => drafts().drop({ ...key, draftId }),
    onFinish: async ({ message, isDisconnect }) => {
      // The connection dropped mid-reply: the draft stays this tab's, for a resumed stream to continue.
      if (isDisconnect) return;
      if (message.role === 'assistant' && !message.parts.some((part) => part.type !== 'step-start')) {
        await reply.release();
        return;
      }
      await save(message);
    },
    transport(inner: ChatTransport<M>): ChatTransport<M> {
      return {
        get resumeStreamIsReplay() {
          return inner.resumeStreamIsReplay;
        },
        ...(inner.close ? { close: () => inner.close?.() } : {}),
        async sendMessages(request) {
          const last = request.messages.at(-1);
          if (request.trigger === 'regenerate-message') await branchReply(request.messages);
          else if (request.trigger === 'submit-message' && last?.role === 'user') {
            await (request.messageId === last.id ? branchEdit(last) : save(last));
          }
          const sent = request.messages.some(hasStoredFiles)
            ? { ...request, messages: await Promise.all(request.messages.map(resolve)) }
            : request;
          const continuing = last?.role === 'assistant' ? last.id : undefined;
          return reply.tap(await inner.sendMessages(sent), continuing);
        },
        reconnectToStream: (request) =>
          reply.resume(() => inner.reconnectToStream(request), inner.resumeStreamIsReplay === true),
      };
    },
    branches(events) {
      const found = new Map<string, ChatBranch>();
      for (const [messageId, point] of pointsByMessage(events)) {
        found.set(messageId, { count: point.alternatives.length, index: point.current });
      }
      return found;
    },
    async switchBranch(messageId, index) {
      const events = (await store.getSession({ ...key }))?.events ?? [];
      const alternative = pointsByMessage(events).get(messageId)?.alternatives[index];
      if (!alternative) throw new InvalidInputError(`switchBranch: message ${messageId} has no alternative ${index}`);
      await switchBranch(store, { ...key, eventId: alternative.eventId });
    },
  };
}
