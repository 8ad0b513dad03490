/**
 * How a draft's deltas make its content: the same fold in the writer (what it
 * holds) and in every reader (what is stored), so both see the same parts. Text
 * extends the last part when that is text of the same kind (answer or thought),
 * else starts a part; whole parts are added as they are.
 */

import type { DraftDelta } from '../public/drafts.js';
import type { Content, Part } from '../public/sessions.js';

/** Lays `delta` over `parts` (changed in place). */
export function foldDelta(parts: Part[], delta: DraftDelta): void {
  if (delta.thought) extendText(parts, delta.thought, true);
  if (delta.text) extendText(parts, delta.text, false);
  if (delta.parts) for (const part of delta.parts) parts.push(structuredClone(part));
}

function extendText(parts: Part[], text: string, thought: boolean): void {
  const last = parts.at(-1);
  if (last && isText(last, thought)) last.text = `${last.text}${text}`;
  else parts.push(thought ? { text, thought: true } : { text });
}

/** A text part of that kind and nothing else: a part that holds more is never extended. */
function isText(part: Part, thought: boolean): part is Part & { text: string } {
  const keys = Object.keys(part);
  return (
    typeof part.text === 'string' &&
    (thought ? part.thought === true && keys.length === 2 : part.thought === undefined && keys.length === 1)
  );
}

/** The content `deltas` make, in order. */
export function contentOf(deltas: Iterable<DraftDelta>): Content {
  const parts: Part[] = [];
  for (const delta of deltas) foldDelta(parts, delta);
  return { role: 'model', parts };
}

/**
 * `deltas` with neighbours of one kind joined (two texts, two thoughts): what one
 * coalesced write stores. The fold of the result equals the fold of the input.
 */
export function joinDeltas(deltas: readonly DraftDelta[]): DraftDelta[] {
  const joined: DraftDelta[] = [];
  for (const delta of deltas) {
    const last = joined.at(-1);
    const kind = kindOf(delta);
    if (last && kind !== 'mixed' && kind === kindOf(last)) {
      if (kind === 'text') last.text = `${last.text}${delta.text}`;
      else if (kind === 'thought') last.thought = `${last.thought}${delta.thought}`;
      else last.parts = [...(last.parts ?? []), ...(delta.parts ?? [])];
    } else joined.push({ ...delta });
  }
  return joined;
}

function kindOf(delta: DraftDelta): 'text' | 'thought' | 'parts' | 'mixed' {
  const has = [delta.text !== undefined, delta.thought !== undefined, delta.parts !== undefined];
  if (has.filter(Boolean).length !== 1) return 'mixed';
  return has[0] ? 'text' : has[1] ? 'thought' : 'parts';
}
