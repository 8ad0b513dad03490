/**
 * The search box: the selected app and user's conversations, searched in the
 * store's worker (`searchEvents`) as you type. Each hit shows its session, time
 * and snippet, the matches marked with `<mark>` elements built by the DOM
 * helper (never HTML); choosing one opens the session at that event.
 */
import type { SearchHit } from '../src/index.js';
import type { Inspector } from './context.js';
import { arrowKeys, type Child, h, patch, replace } from './dom.js';
import { relativeTime } from './format.js';
import type { Selection } from './route.js';

/** Hits shown at most. */
const SHOWN = 20;

/** The snippet's text with each matched range in a `<mark>`. */
export function markedSnippet({ text, ranges }: SearchHit['snippet']): Child[] {
  const out: Child[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) out.push(text.slice(at, start));
    out.push(h('mark', null, text.slice(start, end)));
    at = end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Whose conversations a selection searches (the listed user, else the open session's owner). */
function searched({ app, user, session }: Selection): { app: string; userId: string } | undefined {
  const userId = user ?? session?.userId;
  return app && userId ? { app, userId } : undefined;
}

/** `searched` as one comparable key. */
function scopeOf(selection: Selection): string | undefined {
  const whose = searched(selection);
  return whose && JSON.stringify([whose.app, whose.userId]);
}

export class SearchPanel {
  readonly el: HTMLElement;
  private readonly input = h('input', {
    type: 'search',
    class: 'search-box',
    'aria-label': 'Search conversations',
    placeholder: 'Search conversations',
    spellcheck: 'false',
    autocomplete: 'off',
  });
  private readonly results = h('ul', { class: 'search-results', 'aria-label': 'Search results', hidden: true });
  private generation = 0;
  /** Whose conversations the results are of (`scopeOf`), so a selection change can tell. */
  private scope: string | undefined;
  /** The hits the buttons stand for (each button's `data-hit` is its index here). */
  private shown: { hits: SearchHit[]; app: string; userId: string } | undefined;

  constructor(
    private readonly inspector: Inspector,
    /** Opens a session and shows the event in it. */
    private readonly open: (hit: SearchHit, appName: string, userId: string) => Promise<void>,
  ) {
    arrowKeys(this.results, 'button');
    let typing: ReturnType<typeof setTimeout> | undefined;
    this.input.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => void this.run(), 150);
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') this.close();
      if (event.key === 'ArrowDown') this.results.querySelector<HTMLElement>('button')?.focus();
    });
    // One listener for every hit: the list is patched in place (see run), so its buttons carry none.
    this.results.addEventListener('click', (event) => {
      const index = (event.target as Element).closest<HTMLElement>('button.search-hit')?.dataset.hit;
      const hit = index === undefined ? undefined : this.shown?.hits[Number(index)];
      if (!hit || !this.shown) return;
      this.close();
      void this.open(hit, this.shown.app, this.shown.userId);
    });
    this.results.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.close();
        this.input.focus();
      }
    });
    this.el = h('div', { class: 'search', role: 'search' }, this.input, this.results);
    // The results float over the panes: they go when the user works elsewhere, and come back with the box.
    document.addEventListener('pointerdown', (event) => {
      if (!this.el.contains(event.target as Node)) this.close();
    });
    this.input.addEventListener('focus', () => {
      if (this.input.value.trim()) void this.run();
    });
  }

  private close(): void {
    this.results.hidden = true;
  }

  /** Searches again (after the store changed), if a query is open. */
  refresh(): void {
    if (!this.results.hidden) void this.run();
  }

  /**
   * After the selection changed: open results re-run for the newly selected user; closed ones are
   * dropped (and a search still in flight for the old user is ignored), so opening the box again
   * never shows another user's hits while it searches.
   */
  selectionChanged(): void {
    if (scopeOf(this.inspector.selection()) === this.scope) return;
    if (!this.results.hidden) {
      void this.run();
      return;
    }
    this.generation++;
    this.scope = undefined;
    replace(this.results);
  }

  private async run(): Promise<void> {
    const generation = ++this.generation;
    const query = this.input.value.trim();
    if (!query) return this.close();
    const selection = this.inspector.selection();
    const whose = searched(selection);
    this.scope = scopeOf(selection);
    this.results.hidden = false;
    if (!whose) {
      replace(this.results, h('li', { class: 'search-empty' }, 'Pick a user to search their conversations.'));
      return;
    }
    const { app, userId } = whose;
    try {
      const { hits } = await this.inspector.store.searchEvents({ appName: app, userId, query, limit: SHOWN });
      if (generation !== this.generation) return;
      if (hits.length === 0) {
        replace(this.results, h('li', { class: 'search-empty' }, `Nothing in ${userId}'s conversations matches.`));
        return;
      }
      const now = Date.now();
      this.shown = { hits, app, userId };
      // Patched, not rebuilt: the store's changes re-run an open search, and a hit being clicked
      // while they land must still open (see patch).
      patch(
        this.results,
        hits.map((hit, index) =>
          h(
            'li',
            { 'data-key': JSON.stringify([hit.sessionId, hit.eventId]) },
            h(
              'button',
              { type: 'button', class: 'search-hit', 'data-hit': index },
              h(
                'span',
                { class: 'search-hit-head' },
                // One line, cut with an ellipsis where narrow: the whole id stays in the text (and name) and title.
                h('span', { class: 'mono search-hit-session', title: hit.sessionId }, hit.sessionId),
                h('span', { class: 'muted' }, hit.author ?? ''),
                h('time', { class: 'muted' }, relativeTime(hit.timestamp, now)),
              ),
              h('span', { class: 'search-snippet' }, markedSnippet(hit.snippet)),
            ),
          ),
        ),
      );
    } catch (error) {
      if (generation === this.generation) this.inspector.status.error('Searching failed', error);
    }
  }
}
