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
 */
import type { ChatTransport, UIMessage } from 'ai';
import {
  type AppenderOptions,
  type AppendStore,
  type BranchPoint,
  type BranchStore,
  branchPoints,
  createAppender,
  type DraftsFront,
  InvalidInputError,
  switchBranch,
  withoutRewound,
} from '../index.js';
import type { Event, Session, SessionKey, SessionService } from '../types.js';
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
    drafts?: Pick<DraftsFront, 'begin'>;
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
  /** The chat's stored messages, files as `data:` URLs (the session is created if it does not exist yet). */
  load(): Promise<M[]>;
  /**
   * The chat's messages from its session's `events` (a `useSession` or
   * `watchSession` value, another tab's change), files as `data:` URLs: what
   * `useChat`'s `setMessages` takes. Each file is read once for the chat's lifetime.
   */
  messages(events: readonly Event[]): Promise<M[]>;
  /** Stores `message`, replacing the stored one with its id (the session is created if need be). */
  save(message: M): Promise<void>;
  /**
   * For `useChat({ onFinish })`: stores the finished reply. A reply with nothing
   * in it (the SDK finishes with one when the request failed) is not stored.
   */
  onFinish(event: { message: M }): Promise<void>;
  /**
   * `transport`, storing each new user message before it sends the request,
   * and sending files that point at artifacts (messages from `eventsToMessages`) as `data:` URLs.
   * An edit (`useChat`'s `sendMessage({ text, messageId })`) and a regenerated
   * reply (`regenerate()`) branch the chat: what they replace stays stored as an alternative.
   */
  transport(transport: ChatTransport<M>): ChatTransport<M>;
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
  const messages = (events: readonly Event[]) =>
    Promise.all((conversationToMessages(current(events)) as M[]).map(resolve));
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
      // Read now, not the session as first made: it may have moved on since.
      return messages((await store.getSession({ ...key }))?.events ?? []);
    },
    messages,
    save: (message) => save(message),
    onFinish: async ({ message }) => {
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
          return reply.tap(await inner.sendMessages(sent));
        },
        reconnectToStream: (request) => inner.reconnectToStream(request),
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
