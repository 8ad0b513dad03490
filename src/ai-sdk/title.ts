/**
 * A chat's title, kept in its session's state so a list of chats shows it from
 * `listSessions` (which returns state, never events) without reading a message.
 */
import type { UIMessage } from 'ai';

/** The session state key `persistChat` keeps the conversation's title under. */
export const CHAT_TITLE_KEY = 'title';

const MAX_TITLE = 80;

/** The first user message's text, whitespace folded, cut to 80 characters; else its first file's name. */
export function defaultTitle(message: UIMessage): string | undefined {
  const text = message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Cut by code points: half a surrogate pair is not text.
  const chars = Array.from(text);
  if (chars.length > 0) return chars.length > MAX_TITLE ? `${chars.slice(0, MAX_TITLE - 1).join('')}…` : text;
  const file = message.parts.find((part) => part.type === 'file');
  return file?.type === 'file' ? file.filename : undefined;
}

/** The title `persistChat` keeps for a chat: from a session or a `listSessions` entry; `undefined` until it has one. */
export function chatTitle(session: { state: Record<string, unknown> }): string | undefined {
  const title = session.state[CHAT_TITLE_KEY];
  return typeof title === 'string' ? title : undefined;
}
