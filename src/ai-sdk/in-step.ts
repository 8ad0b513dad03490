/**
 * What `useChatInStep` gives `useChat`: the stored messages, with what this tab
 * shows but has not stored yet after them. The same array when nothing
 * differs, so an unchanged store never re-renders the chat.
 */
import type { UIMessage } from 'ai';
import { jsonEqual } from '../core/json-equal.js';

/** The stored messages then the shown ones not stored yet; `shown` itself when that is what it already holds. */
export function inStep<M extends UIMessage>(stored: readonly M[], shown: M[]): M[] {
  const known = new Set(stored.map((m) => m.id));
  const next = [...stored, ...shown.filter((m) => !known.has(m.id))];
  return next.length === shown.length && next.every((m, i) => m === shown[i] || jsonEqual(m, shown[i])) ? shown : next;
}
