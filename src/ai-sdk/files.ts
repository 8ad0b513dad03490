/**
 * A chat's files as artifacts. The SDK hands files around as base64 `data:`
 * URLs; kept that way, every image would sit in its event as base64 text. With
 * `files: 'artifacts'` each inline file is stored once as an artifact (a Blob)
 * under `chat-files/<message id>/<n>`, the event points at it with a
 * `fileData` part (the artifact's canonical URI) and records it in
 * `actions.artifactDelta`, as ADK does for what a turn saved. Loading turns the
 * artifact back into the `data:` URL the SDK expects, so the round trip is exact.
 */
import type { UIMessage } from 'ai';
import { base64ToBytes, bytesToBase64 } from '../artifacts/base64.js';
import type { ArtifactFront } from '../artifacts/front.js';
import { MAX_FILENAME_LENGTH } from '../limits.js';
import type { SessionKey } from '../types.js';
import { BASE64_DATA_URL } from './parts.js';

/** What the store needs for files kept as artifacts: its `artifacts` face. */
export type ArtifactFiles = Pick<
  ArtifactFront,
  'saveArtifactBlob' | 'loadArtifactBlob' | 'listVersions' | 'getArtifactVersion'
>;

/** Where a stored file part keeps the artifact it points at (in the part's extra fields). */
interface ArtifactRef {
  filename: string;
  version: number;
}

type FilePart = Extract<UIMessage['parts'][number], { type: 'file' }>;
type StoredFilePart = FilePart & { artifact?: ArtifactRef };

/**
 * The artifact that keeps part `index` of message `messageId`, or `undefined` when no artifact name
 * can say which message it belongs to (the file then stays inline). The id is one name segment:
 * percent-encoded, and "." and ".." (which the artifact store refuses as segments) with their dots
 * encoded too; an id that is not well-formed UTF-16, or too long for a name, names nothing.
 */
function fileName(messageId: string, index: number): string | undefined {
  let segment: string;
  try {
    segment = encodeURIComponent(messageId);
  } catch {
    return undefined;
  }
  if (segment === '.' || segment === '..') segment = segment.replaceAll('.', '%2E');
  const name = `chat-files/${segment}/${index}`;
  return name.length <= MAX_FILENAME_LENGTH ? name : undefined;
}

/**
 * `message` with each inline file saved as an artifact (once: a message saved
 * again reuses its files) and its part pointing at it; the artifacts it wrote,
 * for the event's `artifactDelta`.
 */
export async function filesToArtifacts<M extends UIMessage>(
  artifacts: ArtifactFiles,
  key: SessionKey,
  message: M,
): Promise<{ message: M; delta: Record<string, number> }> {
  const delta: Record<string, number> = {};
  const parts = await Promise.all(
    message.parts.map(async (part, index) => {
      if (part.type !== 'file') return part;
      const inline = BASE64_DATA_URL.exec(part.url);
      if (!inline || inline[1] !== part.mediaType) return part;
      const bytes = base64ToBytes(inline[2] as string);
      // Only what loads back as the very same URL: non-canonical base64 ("AR==") stays inline.
      if (bytesToBase64(bytes) !== inline[2]) return part;
      const filename = fileName(message.id, index);
      if (filename === undefined) return part;
      const at = { ...key, filename };
      const known = await artifacts.listVersions(at);
      const version =
        known.at(-1) ??
        (await artifacts.saveArtifactBlob({
          ...at,
          blob: new Blob([bytes], { type: part.mediaType }),
          mimeType: part.mediaType,
        }));
      const stored = await artifacts.getArtifactVersion({ ...at, version });
      delta[filename] = version;
      const ref: StoredFilePart = { ...part, url: stored?.canonicalUri ?? filename, artifact: { filename, version } };
      return ref;
    }),
  );
  return { message: { ...message, parts } as M, delta };
}

/** `message` with every file part that points at an artifact back to its `data:` URL. */
export async function filesFromArtifacts<M extends UIMessage>(
  artifacts: ArtifactFiles,
  key: SessionKey,
  message: M,
): Promise<M> {
  if (!message.parts.some((part) => part.type === 'file' && (part as StoredFilePart).artifact)) return message;
  const parts = await Promise.all(
    message.parts.map(async (part) => {
      const ref = part.type === 'file' ? (part as StoredFilePart).artifact : undefined;
      if (!ref) return part;
      const { artifact: _, ...file } = part as StoredFilePart;
      const loaded = await artifacts.loadArtifactBlob({ ...key, ...ref });
      // A file whose artifact is gone stays a part pointing at where it was.
      if (!loaded?.blob || loaded.kind !== 'bytes') return file;
      const bytes = new Uint8Array(await loaded.blob.arrayBuffer());
      return { ...file, url: `data:${file.mediaType};base64,${bytesToBase64(bytes)}` };
    }),
  );
  return { ...message, parts } as M;
}
