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
