/**
 * How an artifact engine stores bytes: as Blobs (Chromium and Firefox keep them
 * as files and read them lazily) until its IndexedDB refuses one, then as
 * ArrayBuffers (+ the record's `mimeType`) for the rest of the engine's life.
 * WebKit refuses every Blob in an ephemeral website-data session (Safari's
 * Private Browsing, WebKitGTK under automation): the request fails with
 * `UnknownError` ("Error preparing Blob/File data to be stored in object
 * store") and the transaction aborts.
 */
import { StorageError } from '../core/errors.js';
import type { StoredBody } from '../database/records/artifacts.js';
import type { ArtifactWrite } from './schema.js';

/** What a refusal of a Blob looks like, raw or as the store's typed error. */
export function isBlobRefusal(error: unknown): boolean {
  const reason = error instanceof StorageError ? error.cause : error;
  return (reason as { name?: unknown } | null)?.name === 'UnknownError';
}

export class BytesForm {
  private asBlobs: boolean;
  /** A Blob was stored once: this engine takes them (a later refusal is still caught by `write`). */
  private blobsTaken = false;

  constructor(form: 'blob' | 'arraybuffer' = 'blob') {
    this.asBlobs = form === 'blob';
  }

  /**
   * Runs a write in the current form; if it held a Blob and was refused,
   * switches to ArrayBuffers for good and runs it once more. `attempt` must
   * settle only once its transaction has committed or wholly aborted, so the
   * retry never meets a half-written first try. WebKit aborts such a
   * transaction whole, what it wrote before included, unless other writes of
   * it were still pending when the Blob was refused (see `probe`).
   */
  async write<T>(holdsBytes: boolean, attempt: (asBlobs: boolean) => Promise<T>): Promise<T> {
    const asBlobs = holdsBytes && this.asBlobs;
    try {
      const result = await attempt(asBlobs);
      if (asBlobs) this.blobsTaken = true;
      return result;
    } catch (error) {
      if (!asBlobs || !isBlobRefusal(error)) throw error;
      this.asBlobs = false;
      return attempt(false);
    }
  }

  /**
   * Finds out whether Blobs are taken before a write that would meet a refusal
   * behind writes of its own still pending: WebKit never finishes such a
   * transaction (it neither commits nor aborts) and its stores stay locked.
   * An import issues many writes at once. `tryBlob` stores a small Blob in a
   * transaction of its own that it aborts, and settles once that is over.
   */
  async probe(tryBlob: () => Promise<void>): Promise<void> {
    if (!this.asBlobs || this.blobsTaken) return;
    try {
      await tryBlob();
      this.blobsTaken = true;
    } catch (error) {
      if (!isBlobRefusal(error)) throw error;
      this.asBlobs = false;
    }
  }
}

/** `body` as stored: bytes as a Blob or an ArrayBuffer, as `asBlobs` says. */
export async function toStored(
  body: ArtifactWrite['body'],
  asBlobs: boolean,
): Promise<{ body: StoredBody; size: number }> {
  switch (body.kind) {
    case 'bytes': {
      const data = asBlobs ? body.data : await body.data.arrayBuffer();
      // A File may come back from IndexedDB as a plain Blob: its name is kept beside it.
      const displayName = body.displayName ?? (body.data as Partial<File>).name;
      const { part, base64 } = body;
      return {
        body: {
          kind: 'bytes',
          data,
          ...(displayName ? { displayName } : {}),
          ...(part !== undefined ? { part } : {}),
          ...(base64 !== undefined ? { base64 } : {}),
        },
        size: body.data.size,
      };
    }
    case 'text':
      return { body: { ...body }, size: new TextEncoder().encode(body.text).length };
    case 'file':
      return { body: { ...body }, size: 0 };
  }
}
