/**
 * Base64 for ADK's `inlineData.data`, the only place the artifact service
 * meets it: in a browser (no `Buffer`), in chunks so large payloads neither
 * overflow the argument limit of `String.fromCharCode` nor build huge arrays.
 */
const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** Accepts the standard and URL-safe alphabets, padded or not (validated beforehand). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * How a saved `inlineData.data` was written, when not standard padded base64:
 * the URL-safe alphabet and/or no padding (the bytes alone say neither), or,
 * for a string no such rule rebuilds (mixed alphabets, partial padding, stray
 * bits after the last byte), the string itself. `loadArtifact` gives back the
 * string as saved, as ADK does, while the store keeps only bytes.
 */
export type Base64Form = 'url' | 'unpadded' | 'url-unpadded' | { verbatim: string };

/** `bytes` in base64 written as `form` says. */
export function bytesToBase64As(bytes: Uint8Array, form: Base64Form | undefined): string {
  if (typeof form === 'object') return form.verbatim;
  let text = bytesToBase64(bytes);
  if (form === 'url' || form === 'url-unpadded') text = text.replace(/\+/g, '-').replace(/\//g, '_');
  if (form === 'unpadded' || form === 'url-unpadded') text = text.replace(/=+$/, '');
  return text;
}
