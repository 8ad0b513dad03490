/**
 * `idb-adk-sessions/tanstack-ai`: TanStack AI's `ChatClient` persistence
 * (`ChatClientPersistence`) on a session store. Each finished message is one ADK
 * event, stored losslessly; the reply streaming in is a draft of the store,
 * written by what is new and finished into its event in one transaction; a reply
 * cut off by a closed or crashed tab loads back as a partial message marked
 * interrupted. Needs only the types of `@tanstack/ai-client` (an optional peer):
 * nothing of it is loaded at run time.
 *
 * @example
 * ```ts
 * const persistence = chatClientPersistence(store, { appName: 'chat', userId, onError: console.error });
 * const client = new ChatClient({ threadId, persistence, onFinish: (m) => persistence.onFinish(m), connection });
 * ```
 */

export { INTERRUPTED_TOOL_ERROR } from '../core/interrupted-tool.js';
export {
  eventToMessage,
  isInterrupted,
  messageToEvent,
  STORED_REPLY_KEY,
  TANSTACK_AI_METADATA_KEY,
} from './messages.js';
export {
  type ChatClientPersistenceOptions,
  type ChatClientStore,
  chatClientPersistence,
  type StoredChatPersistence,
} from './persistence.js';
