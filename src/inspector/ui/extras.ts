/** The session's artifacts, a search of the user's memory, and the app's sync status. */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ArtifactVersion, MemoryHit, SessionStore, SyncHandle, SyncStatus } from '../../index.js';
import { humanTime } from './format.js';
import { useRead } from './hooks.js';

interface Key {
  appName: string;
  userId: string;
  sessionId: string;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function Artifacts(props: { store: SessionStore; at: Key }) {
  const { appName, userId, sessionId } = props.at;
  const read = useRead(
    props.store,
    { appName, userId, sessionId },
    async () => {
      const names = await props.store.artifacts.listArtifactKeys({ appName, userId, sessionId });
      return Promise.all(
        names.map(async (filename) => ({
          filename,
          versions: await props.store.artifacts.listArtifactVersions({ appName, userId, sessionId, filename }),
        })),
      );
    },
    JSON.stringify([appName, userId, sessionId]),
  );
  if (read.error) return h('p', { role: 'alert' }, `Artifacts could not be read: ${errorText(read.error)}`);
  if (!read.value) return h('p', { class: 'muted' }, 'Reading…');
  if (read.value.length === 0) return h('p', { class: 'muted' }, 'No artifacts in this session.');
  return h(
    'ul',
    { class: 'plain', 'aria-label': 'Artifacts' },
    read.value.map(({ filename, versions }) => {
      const latest = versions[versions.length - 1] as ArtifactVersion | undefined;
      return h(
        'li',
        { key: filename },
        h('span', { class: 'mono' }, filename),
        latest
          ? h(
              'span',
              { class: 'muted' },
              ` · ${versions.length} version${versions.length === 1 ? '' : 's'} · ${latest.mimeType} · ${latest.size} B · ${humanTime(latest.createTime)}`,
            )
          : null,
      );
    }),
  );
}

export function Memory(props: { store: SessionStore; at: Key }) {
  const [hits, setHits] = useState<MemoryHit[] | undefined>(undefined);
  const [error, setError] = useState('');
  const { appName, userId, sessionId } = props.at;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new session starts a new search.
  useEffect(() => setHits(undefined), [appName, userId, sessionId]);
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const query = String(new FormData(e.currentTarget as HTMLFormElement).get('query') ?? '');
    setError('');
    props.store.memory.searchMemory({ appName, userId, query }).then(
      (answer) => setHits(answer.memories),
      (failure: unknown) => setError(errorText(failure)),
    );
  };
  return h(
    'div',
    null,
    h(
      'form',
      { class: 'inline-form', onSubmit: submit, role: 'search', 'aria-label': 'Memory' },
      h('label', null, 'Search memory', h('input', { type: 'search', name: 'query', required: true })),
      h('button', { type: 'submit' }, 'Search memory'),
    ),
    error ? h('p', { role: 'alert' }, error) : null,
    hits === undefined
      ? null
      : hits.length === 0
        ? h('p', { class: 'muted' }, "Nothing in this user's memory matches.")
        : h(
            'ul',
            { class: 'plain', 'aria-label': 'Memory hits' },
            hits.map((hit) =>
              h(
                'li',
                { key: hit.id },
                h(
                  'span',
                  { class: 'muted' },
                  `${hit.author ?? '?'} · ${humanTime(hit.timestamp)}${hit.sessionId === sessionId ? ' · this session' : ''}: `,
                ),
                hit.content.parts.map((p) => p.text).join(' '),
              ),
            ),
          ),
  );
}

export function Sync(props: { sync: SyncHandle | undefined }) {
  const [status, setStatus] = useState<SyncStatus | undefined>(props.sync?.status);
  useEffect(() => {
    setStatus(props.sync?.status);
    return props.sync?.onStatus(setStatus);
  }, [props.sync]);
  if (!props.sync || !status)
    return h('p', { class: 'muted' }, 'No sync handle was given to the inspector (option "sync").');
  return h(
    'dl',
    { class: 'facts', 'aria-label': 'Sync status' },
    h('dt', null, 'Phase'),
    h('dd', null, status.phase),
    h('dt', null, 'Online'),
    h('dd', null, status.online ? 'yes' : 'no'),
    h('dt', null, 'Pending'),
    h('dd', null, String(status.pending)),
    h('dt', null, 'Last sync'),
    h('dd', null, status.lastSyncAt === null ? 'never' : humanTime(status.lastSyncAt)),
    status.lastError
      ? [h('dt', null, 'Last error'), h('dd', null, `${status.lastError.message} (${humanTime(status.lastError.at)})`)]
      : null,
  );
}
