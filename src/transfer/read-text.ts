/**
 * Reading an import source (a string, a Blob or a byte stream) into text,
 * reporting bytes as they arrive. The whole text is needed at once: an import
 * is validated entire before anything is written.
 */
import { InvalidInputError } from '../core/errors.js';

/** What an import reads: the document as a string, a `Blob` or `File`, or a byte stream (UTF-8). */
export type ImportSource = Blob | string | ReadableStream<Uint8Array>;

/** The UTF-8 length of `text`, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** The size of `source` in bytes when known before reading it. */
export function sizeOf(source: ImportSource): number | undefined {
  if (typeof source === 'string') return utf8Length(source);
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size;
  return undefined;
}

const stripBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * The text of `source`. Rejects with `InvalidInputError` for a source of another
 * kind or bytes that are not UTF-8, and with the signal's reason once aborted
 * (the stream is then cancelled).
 */
export async function readText(
  source: ImportSource,
  signal: AbortSignal | undefined,
  onBytes: (bytes: number) => void,
): Promise<string> {
  if (typeof source === 'string') {
    onBytes(utf8Length(source));
    return stripBom(source);
  }
  let stream: ReadableStream<Uint8Array>;
  if (typeof Blob !== 'undefined' && source instanceof Blob) stream = source.stream();
  else if (typeof ReadableStream !== 'undefined' && source instanceof ReadableStream) stream = source;
  else throw new InvalidInputError('importSessions: source: must be a Blob, a string or a ReadableStream of bytes');

  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let bytes = 0;
  const decode = (chunk?: Uint8Array): string => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new InvalidInputError(`importSessions: source: is not UTF-8 text (at or before byte ${bytes})`);
    }
  };
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      if (!(value instanceof Uint8Array)) {
        throw new InvalidInputError('importSessions: source: the stream must yield Uint8Array chunks');
      }
      parts.push(decode(value));
      bytes += value.byteLength;
      onBytes(bytes);
    }
    parts.push(decode());
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
  try {
    return stripBom(parts.join(''));
  } catch {
    // Past the engine's longest string (about 512 MiB in V8): too large to import in one go.
    throw new InvalidInputError(`importSessions: source: ${bytes} bytes is too large to import at once`);
  }
}
