/**
 * What `useChatInStep` gives `useChat`: the stored messages, with what this tab
 * shows but has not stored yet after them. A message stored but not in the
 * current conversation (an alternative another switch or edit left) is not
 * "not stored yet": it is dropped. The same array when nothing differs, so an
 * unchanged store never re-renders the chat.
 */
import type { UIMessage } from 'ai';
import { jsonEqual } from '../core/json-equal.js';

/**
 * The stored messages then the shown ones not stored yet; `shown` itself when that is what it
 * already holds. `everStored`: the ids of every message the session holds, alternatives included.
 */
export function inStep<M extends UIMessage>(stored: readonly M[], shown: M[], everStored?: ReadonlySet<string>): M[] {
  const known = new Set([...stored.map((m) => m.id), ...(everStored ?? [])]);
  const next = [...stored, ...shown.filter((m) => !known.has(m.id))];
  return next.length === shown.length && next.every((m, i) => m === shown[i] || jsonEqual(m, shown[i])) ? shown : next;
}
