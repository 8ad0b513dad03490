import type { Event } from '../types.js';

/**
 * The text of an event that search sees: its text parts, one per line, thought
 * parts left out (a model's reasoning is not what the user said or was told).
 * `undefined` for an event without text: it is not indexed.
 */
export function eventText(event: Event): string | undefined {
  const parts = event.content?.parts;
  if (!Array.isArray(parts)) return undefined;
  const texts: string[] = [];
  for (const part of parts) {
    if (
      part &&
      typeof part.text === 'string' &&
      part.text.length > 0 &&
      (part as { thought?: unknown }).thought !== true
    )
      texts.push(part.text);
  }
  return texts.length > 0 ? texts.join('\n') : undefined;
}
