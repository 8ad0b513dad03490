/**
 * Files in the demo: attaching them to a session (stored as artifacts, the
 * `File` handed to the store as it is), showing them in the timeline (image
 * thumbnails, a text preview, a Download link) and the Artifacts panel. Stored
 * bytes are never rendered as HTML: images go through `<img>`, text through
 * text nodes, and every download is re-typed `application/octet-stream`, so
 * even an HTML file cannot open as a page of this origin.
 */
import type { ArtifactVersion, Event, Session, SessionStore } from '../src/index.js';
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

/**
 * The session's and the user's artifacts: every version with its type and size, each downloadable.
 * Read again each time the session is shown (an append may have saved one); the list on screen
 * stays until the new one is ready, so a re-read does not flash "Loading…", and a read that
 * answers after a newer one is dropped.
 */
export class ArtifactsPanel {
  private readonly body = h('div', { class: 'artifacts-body' });
  readonly el = h(
    'section',
    { class: 'artifacts-panel', 'aria-label': 'Artifacts' },
    h('h3', { class: 'col-title' }, 'Artifacts'),
    this.body,
  );
  /** The session whose list is on screen. */
  private shown: string | undefined;
  private reads = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly urls: ObjectUrls,
  ) {}

  show(session: Session): void {
    const key = keyOf(session);
    const id = JSON.stringify([key.appName, key.userId, key.sessionId]);
    // Another session's list is not this one's to keep.
    if (id !== this.shown) replace(this.body, h('p', { class: 'muted' }, 'Loading…'));
    this.shown = id;
    const read = ++this.reads;
    this.list(key).then(
      (content) => {
        if (read === this.reads) replace(this.body, content);
      },
      () => {
        if (read === this.reads) replace(this.body, h('p', { class: 'muted' }, 'Could not list the artifacts.'));
      },
    );
  }

  private async list(key: ArtifactKey): Promise<HTMLElement> {
    const names = await this.store.artifacts.listArtifactKeys(key);
    if (names.length === 0) return h('p', { class: 'muted' }, 'None yet. Attach a file, or say "save a note: ...".');
    const rows = await Promise.all(
      names.map(async (filename) => ({
        filename,
        versions: await this.store.artifacts.listArtifactVersions({ ...key, filename }),
      })),
    );
    return h(
      'ul',
      { class: 'artifact-list' },
      rows.map(({ filename, versions }) =>
        h(
          'li',
          null,
          h('span', { class: 'mono' }, filename),
          filename.startsWith('user:') ? h('span', { class: 'chip-scope' }, ' user') : null,
          h(
            'ul',
            { class: 'artifact-versions' },
            versions.map((v) => versionRow(this.store, key, filename, v, this.urls)),
          ),
        ),
      ),
    );
  }
}

function versionRow(store: SessionStore, key: ArtifactKey, filename: string, v: ArtifactVersion, urls: ObjectUrls) {
  const get = h('button', { type: 'button', class: 'ghost small' }, 'Download');
  get.addEventListener('click', async () => {
    const loaded = await store.artifacts.loadArtifactBlob({ ...key, filename, version: v.version });
    if (!loaded?.blob) return;
    const a = h('a', { href: urls.make(download(loaded.blob)), download: filename.replace(/^user:/, '') });
    a.click();
  });
  return h('li', null, `v${v.version} · ${v.mimeType} · ${formatBytes(v.size)} `, get);
}
