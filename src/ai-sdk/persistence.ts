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
import { eventsToMessages, messageToEvent } from './messages.js';

export type ChatStore = AppendStore & Pick<SessionService, 'getOrCreateSession'>;

export interface ChatPersistenceOptions extends AppenderOptions {
  /** Author of assistant messages in the stored events (default `'assistant'`). */
  author?: string;
}

export interface ChatPersistence {
  /** The chat's stored messages (the session is created if it does not exist yet). */
  load(): Promise<UIMessage[]>;
  /** Stores `message`, replacing the stored one with its id. */
  save(message: UIMessage): Promise<void>;
  /** For `useChat({ onFinish })`: stores the finished reply. */
  onFinish(event: { message: UIMessage }): Promise<void>;
  /** `transport`, storing each new user message before it sends the request. */
  transport<M extends UIMessage>(transport: ChatTransport<M>): ChatTransport<M>;
}

export function persistChat(store: ChatStore, key: SessionKey, options: ChatPersistenceOptions = {}): ChatPersistence {
  const append = createAppender(store, key, options);
  const author = options.author === undefined ? {} : { author: options.author };
  const save = async (message: UIMessage): Promise<void> => {
    await append(messageToEvent(message, author));
  };
  return {
    async load() {
      const session = await store.getOrCreateSession({ ...key });
      return eventsToMessages(session.events);
    },
    save,
    onFinish: ({ message }) => save(message),
    transport<M extends UIMessage>(inner: ChatTransport<M>): ChatTransport<M> {
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
