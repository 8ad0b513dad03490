/**
 * Offline history for `useChat`: the chat's messages load from a session, the
 * user's message is stored before its request goes out (so nothing typed is
 * lost when the network is not there), and each finished reply is stored.
 * A message is one event with the message's id: saving it again (a tool result
 * arrived, an approval was given) replaces that event in its place.
 */
import type { ChatTransport, UIMessage } from 'ai';
import { type AppenderOptions, type AppendStore, createAppender } from '../live/appender.js';
import type { SessionKey, SessionService } from '../types.js';
import { type ArtifactFiles, filesFromArtifacts, filesToArtifacts } from './files.js';
import { eventsToMessages, messageToEvent } from './messages.js';

export type ChatStore = AppendStore & Pick<SessionService, 'getOrCreateSession'> & { artifacts?: ArtifactFiles };

export interface ChatPersistenceOptions extends AppenderOptions {
  /** Author of assistant messages in the stored events (default `'assistant'`). */
  author?: string;
  /**
   * Where inline (`data:` URL) files go: `'artifacts'` (the default where the
   * store has `artifacts`) stores each as an artifact Blob the event points at;
   * `'inline'` keeps it as base64 in the event.
   */
  files?: 'artifacts' | 'inline';
}

/** `M`: the app's message type (`InferAgentUIMessage<typeof agent>`, say); stored messages are trusted to be of it. */
export interface ChatPersistence<M extends UIMessage = UIMessage> {
  /** The chat's stored messages (the session is created if it does not exist yet). */
  load(): Promise<M[]>;
  /** Stores `message`, replacing the stored one with its id. */
  save(message: M): Promise<void>;
  /**
   * For `useChat({ onFinish })`: stores the finished reply. A reply with nothing
   * in it (the SDK finishes with one when the request failed) is not stored.
   */
  onFinish(event: { message: M }): Promise<void>;
  /** `transport`, storing each new user message before it sends the request. */
  transport(transport: ChatTransport<M>): ChatTransport<M>;
}

export function persistChat<M extends UIMessage = UIMessage>(
  store: ChatStore,
  key: SessionKey,
  options: ChatPersistenceOptions = {},
): ChatPersistence<M> {
  const append = createAppender(store, key, options);
  const author = options.author === undefined ? {} : { author: options.author };
  const artifacts = options.files === 'inline' ? undefined : store.artifacts;
  const save = async (message: M): Promise<void> => {
    if (!artifacts) {
      await append(messageToEvent(message, author));
      return;
    }
    const kept = await filesToArtifacts(artifacts, key, message);
    const event = messageToEvent(kept.message, author);
    if (Object.keys(kept.delta).length > 0) {
      event.actions = { ...event.actions, artifactDelta: { ...event.actions?.artifactDelta, ...kept.delta } };
    }
    await append(event);
  };
  return {
    async load() {
      const session = await store.getOrCreateSession({ ...key });
      const messages = eventsToMessages(session.events) as M[];
      return artifacts ? Promise.all(messages.map((m) => filesFromArtifacts(artifacts, key, m))) : messages;
    },
    save,
    onFinish: async ({ message }) => {
      if (message.role === 'assistant' && !message.parts.some((part) => part.type !== 'step-start')) return;
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
          if (request.trigger === 'submit-message' && last?.role === 'user') await save(last);
          return inner.sendMessages(request);
        },
        reconnectToStream: (request) => inner.reconnectToStream(request),
      };
    },
  };
}
