/**
 * Files in the demo: attaching them to a session (stored as artifacts, the
 * `File` handed to the store as it is) and showing them in the chat (image
 * thumbnails, a text preview, a Download link). Stored
 * bytes are never rendered as HTML: images go through `<img>`, text through
 * text nodes, and every download is re-typed `application/octet-stream`, so
 * even an HTML file cannot open as a page of this origin.
 */
import type { Event, Session, SessionStore } from '../src/index.js';
import { h, replace } from './dom.js';
import { formatBytes } from './format.js';

export type ArtifactKey = { appName: string; userId: string; sessionId: string };

const keyOf = (session: Session): ArtifactKey => ({
  appName: session.appName,
  userId: session.userId,
  sessionId: session.id,
});

/** Object URLs made for one shown session; all revoked when it is left. */
export class ObjectUrls {
  private readonly urls = new Set<string>();
  make(blob: Blob): string {
    const url = URL.createObjectURL(blob);
    this.urls.add(url);
    return url;
  }
  revokeAll(): void {
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls.clear();
  }
}

/** A file name the store accepts: no "/" nesting, no control characters, no "." or ".." alone. */
export function attachmentName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const clean = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' || clean.startsWith('user:') ? `file-${clean}` : clean;
}

/**
 * Stores each file as an artifact of the session, then one user event that
 * records them in `artifactDelta` (as ADK's Runner does for uploads).
 */
export async function attachFiles(
  store: SessionStore,
  session: Session,
  files: readonly File[],
  onFile: (file: File, index: number) => void,
): Promise<void> {
  // Entries, not assignments: a file named "__proto__" is just a key.
  const saved: [string, number][] = [];
  for (const [i, file] of files.entries()) {
    onFile(file, i);
    const filename = attachmentName(file.name);
    saved.push([filename, await store.artifacts.saveArtifactBlob({ ...keyOf(session), filename, blob: file })]);
  }
  const delta = Object.fromEntries(saved);
  await store.appendEvent({
    session,
    event: {
      id: crypto.randomUUID(),
      invocationId: `e-${crypto.randomUUID()}`,
      author: 'user',
      timestamp: Date.now(),
      content: { role: 'user', parts: Object.keys(delta).map((name) => ({ text: `[Uploaded Artifact: "${name}"]` })) },
      actions: { stateDelta: {}, artifactDelta: delta, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
    },
  });
}

const download = (blob: Blob): Blob => new Blob([blob], { type: 'application/octet-stream' });

/** One version, shown inline: a thumbnail for an image, the start of a text, and a Download link. */
function attachmentView(store: SessionStore, key: ArtifactKey, filename: string, version: number, urls: ObjectUrls) {
  const preview = h('div', { class: 'attachment-preview' });
  const link = h('a', { class: 'attachment-download', download: filename }, 'Download');
  const figure = h(
    'figure',
    { class: 'attachment' },
    preview,
    h('figcaption', null, h('span', { class: 'mono' }, filename), ` v${version} `, link),
  );
  void store.artifacts.loadArtifactBlob({ ...key, filename, version }).then(
    async (loaded) => {
      if (!loaded?.blob) {
        replace(preview, h('span', { class: 'muted' }, loaded ? 'a reference, no bytes' : 'deleted'));
        link.remove();
        return;
      }
      link.href = urls.make(download(loaded.blob));
      link.title = `${loaded.mimeType}, ${formatBytes(loaded.size)}`;
      if (loaded.mimeType.startsWith('image/')) {
        replace(preview, h('img', { src: urls.make(loaded.blob), alt: filename, class: 'thumb' }));
      } else if (loaded.mimeType.startsWith('text/')) {
        replace(preview, h('pre', { class: 'text-preview' }, await loaded.blob.slice(0, 2000).text()));
      } else {
        replace(preview, h('span', { class: 'muted' }, `${loaded.mimeType}, ${formatBytes(loaded.size)}`));
      }
    },
    () => replace(preview, h('span', { class: 'muted' }, 'could not be loaded')),
  );
  return figure;
}

/** The attachments an event recorded in `artifactDelta`, or null. */
export function eventAttachments(store: SessionStore, key: ArtifactKey, event: Event, urls: ObjectUrls) {
  const delta = Object.entries(event.actions?.artifactDelta ?? {});
  if (delta.length === 0) return null;
  return h(
    'div',
    { class: 'attachments' },
    delta.map(([filename, version]) => attachmentView(store, key, filename, version, urls)),
  );
}
