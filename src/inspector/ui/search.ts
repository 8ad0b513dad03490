/**
 * Full-text search of the selected user's events, or, with "All users", of
 * every user of the app: one search per user (the store searches one user at a
 * time), merged by rank (a hit's place in its own user's answer, since scores
 * compare only within one answer). What is shown says whose conversations were
 * searched; picking another user searches again for the same words.
 */
import { h } from 'preact';
import type { SearchHit, SessionStore } from '../../index.js';
import { humanTime } from './format.js';

export interface UserHit extends SearchHit {
  userId: string;
}

const LIMIT = 20;

/** A search's answer and what it searched: the app, and one user or (`undefined`) all of them. */
export interface Found {
  appName: string;
  userId: string | undefined;
  query: string;
  hits: UserHit[];
  error: string;
}

/** Searches and says what: a failed search is an answer with its error's message. */
export function search(
  store: SessionStore,
  appName: string,
  userId: string | undefined,
  query: string,
): Promise<Found> {
  const found = { appName, userId, query };
  return searchApp(store, appName, userId, query).then(
    (hits) => ({ ...found, hits, error: '' }),
    (error: unknown) => ({ ...found, hits: [], error: error instanceof Error ? error.message : String(error) }),
  );
}

async function searchApp(
  store: SessionStore,
  appName: string,
  userId: string | undefined,
  query: string,
): Promise<UserHit[]> {
  const users = userId === undefined ? (await store.listUsers({ appName })).map((u) => u.userId) : [userId];
  const answers = await Promise.all(
    users.map(async (user) =>
      (await store.searchEvents({ appName, userId: user, query, limit: LIMIT })).hits.map((hit) => ({
        ...hit,
        userId: user,
      })),
    ),
  );
  const merged: UserHit[] = [];
  for (let rank = 0; rank < LIMIT; rank += 1)
    for (const hits of answers) if (hits[rank]) merged.push(hits[rank] as UserHit);
  return merged.slice(0, 50);
}

/** The snippet, its matches marked; text nodes only. */
function Snippet(props: { hit: SearchHit }) {
  const { text, ranges } = props.hit.snippet;
  const out = [];
  let at = 0;
  for (const [start, end] of ranges) {
    out.push(text.slice(at, start), h('mark', null, text.slice(start, end)));
    at = end;
  }
  out.push(text.slice(at));
  return h('span', { class: 'snippet' }, out);
}

export function SearchForm(props: {
  store: SessionStore;
  appName: string | undefined;
  userId: string | undefined;
  onResults(found: Found | undefined): void;
}) {
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const query = String(new FormData(e.currentTarget as HTMLFormElement).get('query') ?? '');
    const { appName } = props;
    if (!appName || query.trim() === '') return props.onResults(undefined);
    search(props.store, appName, props.userId, query).then(props.onResults);
  };
  return h(
    'form',
    { class: 'inline-form', role: 'search', 'aria-label': 'Events', onSubmit: submit },
    h(
      'label',
      null,
      props.userId === undefined ? 'Search all users' : 'Search this user',
      h('input', { type: 'search', name: 'query' }),
    ),
    h('button', { type: 'submit', disabled: !props.appName }, 'Search'),
  );
}

export function SearchResults(props: { found: Found; onOpen(hit: UserHit): void; onClear(): void }) {
  const head = h(
    'div',
    { class: 'json-head' },
    h('h3', null, `Search: ${props.found.query}`),
    h('button', { type: 'button', onClick: props.onClear }, 'Clear search'),
  );
  const { hits, error, userId } = props.found;
  if (error) return h('div', null, head, h('p', { role: 'alert' }, error));
  if (hits.length === 0)
    return h(
      'div',
      null,
      head,
      h(
        'p',
        { class: 'muted' },
        userId === undefined
          ? "Nothing in this app's conversations matches."
          : `Nothing in ${userId}'s conversations matches.`,
      ),
    );
  return h(
    'div',
    null,
    head,
    h(
      'ul',
      { class: 'hits', 'aria-label': 'Search results' },
      hits.map((hit) =>
        h(
          'li',
          { key: `${hit.userId}/${hit.sessionId}/${hit.eventId}` },
          h(
            'button',
            { type: 'button', class: 'hit', onClick: () => props.onOpen(hit) },
            h(
              'span',
              { class: 'hit-where', title: `${hit.userId} / ${hit.sessionId}` },
              `${hit.userId} · ${hit.sessionId}`,
            ),
            h('span', { class: 'muted' }, ` ${hit.author ?? '?'} · ${humanTime(hit.timestamp)}`),
            h(Snippet, { hit }),
          ),
        ),
      ),
    ),
  );
}
