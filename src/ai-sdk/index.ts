/**
 * `idb-adk-sessions/ai-sdk`: the Vercel AI SDK's `UIMessage`s kept as ADK
 * events, losslessly, and a `useChat` helper that keeps a chat's history
 * offline, its files as artifacts and its title in the session's state. Needs
 * only the types of `ai` (an optional peer): nothing of the SDK is loaded at
 * run time. In React, `idb-adk-sessions/ai-sdk/react`'s `useStoredChat` does the rest.
 *
 * @example
 * ```ts
 * const chat = persistChat(store, { appName: 'chat', userId, sessionId });
 * const initial = await chat.load(); // files as data: URLs
 * useChat({ id: sessionId, messages: initial, transport: chat.transport(transport), onFinish: chat.onFinish });
 * ```
 */

export { INTERRUPTED_TOOL_ERROR } from '../core/interrupted-tool.js';
export { REPLY_DRAFT_KEY, type ReplyDraft, replyDraftOf } from './draft-messages.js';
export type { ArtifactFiles } from './files.js';
export {
  AI_SDK_METADATA_KEY,
  eventsToMessages,
  eventToMessage,
  messageToEvent,
  type ToEventOptions,
} from './messages.js';
export {
  type ChatBranch,
  type ChatPersistence,
  type ChatPersistenceOptions,
  type ChatStore,
  persistChat,
} from './persistence.js';
export { CHAT_TITLE_KEY, chatTitle } from './title.js';
