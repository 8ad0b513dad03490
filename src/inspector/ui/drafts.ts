/**
 * The replies streaming into the shown session (its drafts), under its events:
 * each grows as another tab writes it, says "interrupted" once that tab is gone,
 * and leaves when its event arrives. Text only: what a draft holds is shown as
 * text, never as HTML, as everything the store holds.
 */
import { h } from 'preact';
import { type Draft, type SessionStore, watchDrafts } from '../../index.js';
import { useLive } from './hooks.js';

interface Key {
  appName: string;
  userId: string;
  sessionId: string;
}

const textOf = (draft: Draft, thought: boolean): string =>
  (draft.content.parts ?? [])
    .filter((part) => typeof part.text === 'string' && (part.thought === true) === thought)
    .map((part) => part.text)
    .join('');

export function Drafts({ store, session }: { store: SessionStore; session: Key | undefined }) {
  const id = JSON.stringify(session ?? null);
  const drafts = useLive(() => (session ? watchDrafts(store, session) : undefined), id)?.value ?? [];
  if (drafts.length === 0) return null;
  return h(
    'div',
    { class: 'drafts', role: 'region', 'aria-label': 'Replies streaming' },
    drafts.map((draft) =>
      h(
        'div',
        { class: 'draft', key: draft.id, 'data-draft': draft.id },
        h(
          'div',
          { class: 'draft-head' },
          h('span', { class: 'ev-author' }, draft.author),
          h(
            'span',
            { class: draft.interrupted ? 'tag tag-error' : 'tag' },
            draft.interrupted ? 'interrupted' : 'streaming…',
          ),
        ),
        textOf(draft, true) ? h('p', { class: 'draft-thought muted' }, textOf(draft, true)) : null,
        h('p', { class: 'draft-text' }, textOf(draft, false)),
      ),
    ),
  );
}
