/**
 * A chat's files as artifacts. The SDK hands files around as base64 `data:`
 * URLs; kept that way, every image would sit in its event as base64 text. With
 * `files: 'artifacts'` each inline file is stored once as an artifact (a Blob)
 * under `chat-files/<message id>/<n>`, the event points at it with a
 * `fileData` part (the artifact's canonical URI) and records it in
 * `actions.artifactDelta`, as ADK does for what a turn saved. Loading turns the
 * artifact back into the `data:` URL the SDK expects, so the round trip is exact
 * and every message handed to `useChat` can be shown and sent again.
 */
import type { UIMessage } from 'ai';
import { base64ToBytes, bytesToBase64 } from '../core/base64.js';
import { MAX_FILENAME_LENGTH } from '../core/limits.js';
import type { ArtifactFront } from '../index.js';
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

/** Whether `message` has a file part that points at an artifact (an `indexeddb://` URL no browser can load). */
export const hasStoredFiles = (message: UIMessage): boolean =>
  message.parts.some((part) => part.type === 'file' && (part as StoredFilePart).artifact !== undefined);

/** Turns the file parts of a message that point at artifacts back into `data:` URLs. */
export type FileResolver = <M extends UIMessage>(message: M) => Promise<M>;

/**
 * A resolver for one chat's files. The AI SDK sends and `<img>` shows only
 * `http(s):` and `data:` URLs, so a stored file comes back as the `data:` URL
 * it was saved from: exact, sendable, and with no lifetime to manage (an
 * object URL would need revoking, and could not be sent). An artifact version
 * never changes, so each is read once and its URL kept for the resolver's
 * lifetime (the chat's), shared by every later load of the chat: a change from
 * another tab re-resolves only the new files.
 */
export function fileResolver(artifacts: ArtifactFiles, key: SessionKey): FileResolver {
  const urls = new Map<string, Promise<string | undefined>>();
  const urlOf = (ref: ArtifactRef, mediaType: string): Promise<string | undefined> => {
    const id = `${ref.version}/${ref.filename}`;
    let url = urls.get(id);
    if (!url) {
      url = artifacts.loadArtifactBlob({ ...key, ...ref }).then(async (loaded) => {
        // A file whose artifact is gone stays a part pointing at where it was; asked again, it is read again.
        if (!loaded?.blob || loaded.kind !== 'bytes') {
          urls.delete(id);
          return undefined;
        }
        return `data:${mediaType};base64,${bytesToBase64(new Uint8Array(await loaded.blob.arrayBuffer()))}`;
      });
      url.catch(() => urls.delete(id));
      urls.set(id, url);
    }
    return url;
  };
  return async (message) => {
    if (!hasStoredFiles(message)) return message;
    const parts = await Promise.all(
      message.parts.map(async (part) => {
        const ref = part.type === 'file' ? (part as StoredFilePart).artifact : undefined;
        if (!ref) return part;
        const { artifact: _, ...file } = part as StoredFilePart;
        const url = await urlOf(ref, file.mediaType);
        return url === undefined ? file : { ...file, url };
      }),
    );
    return { ...message, parts };
  };
}
