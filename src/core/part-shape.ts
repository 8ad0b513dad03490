/**
 * Where a Part keeps its payload, and the Part put back together around it:
 * the half of `part.ts` the page needs to hand out a loaded Part. Kept apart,
 * with no imports, so the page bundle does not carry the checks only the
 * store runs (a module shared by the page and a lazy chunk is bundled whole
 * into the page).
 */

export type BodyKind = 'bytes' | 'text' | 'file';

/** A Part's fields besides its payload. */
export type PartFields = Record<string, unknown>;

/** The Part field that holds each kind's payload, and the payload's own field in it (none for text). */
export const PAYLOAD = { bytes: ['inlineData', 'data'], text: ['text'], file: ['fileData', 'fileUri'] } as const;
export const PAYLOAD_KEYS = ['inlineData', 'text', 'fileData'] as const;

/** The Part: `fields` around `payload`, as it was saved. */
export function partOf(fields: PartFields, kind: BodyKind, payload: string): Record<string, unknown> {
  const part: Record<string, unknown> = { ...fields };
  const [key, inner] = PAYLOAD[kind];
  if (inner === undefined) part[key] = payload;
  else part[key] = { ...(fields[key] as Record<string, unknown>), [inner]: payload };
  return part;
}
