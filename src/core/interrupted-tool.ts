/**
 * The error the chat adapters (AI SDK, TanStack AI) answer a tool call with when the reply that
 * made it was cut off (its tab closed or crashed) before the tool's result: a conversation holding
 * a call without a result is refused by the SDKs and the model APIs, and the model must not be
 * told the tool ran. Stored as ADK reads it too: a `functionResponse` of `{ error }`.
 */
export const INTERRUPTED_TOOL_ERROR = 'The reply was interrupted before this tool call returned a result.';
