/**
 * The middle pane: the selected app's (or user's) sessions, by last update,
 * one page at a time. Without a filter each page is one `listSessions` call
 * with `limit`/`offset` (an index walk, so 10,000 sessions cost what 50 do);
 * with a filter the whole listing is read once, filtered here, and kept until
 * the next change.
 */
import type { Session } from '../src/index.js';
import type { Inspector } from './context.js';
import { arrowKeys, h, patch, replace } from './dom.js';
import { matchesFilter, parseFilter } from './filter.js';
import { formatCount, preview, relativeTime } from './format.js';
import { formatHash, type Selection } from './route.js';

export const PAGE_SIZE = 50;

interface Loaded {
  sessions: Session[];
  total: number;
  /** Sessions the filter looked at (filtered views only). */
  scanned?: number;
}

export class SessionList {
  readonly el: HTMLElement;
  private readonly title = h('h2', { class: 'pane-title' }, 'Sessions');
  private readonly filter = h('input', {
    type: 'search',
    class: 'filter',
    'aria-label': 'Filter sessions',
    placeholder: 'Filter: id, value or key=value',
    spellcheck: 'false',
    autocomplete: 'off',
  });
  private readonly order = h(
    'select',
    { 'aria-label': 'Sort order', class: 'order' },
    h('option', { value: 'desc' }, 'Newest first'),
    h('option', { value: 'asc' }, 'Oldest first'),
  );
  private readonly list = h('ul', { class: 'session-list', 'aria-label': 'Sessions' });
  private readonly range = h('span', { class: 'pager-range', 'aria-live': 'polite' });
  private readonly prev = h('button', { type: 'button', class: 'ghost icon', 'aria-label': 'Previous page' }, '‹');
  private readonly next = h('button', { type: 'button', class: 'ghost icon', 'aria-label': 'Next page' }, '›');
  private readonly first = h('button', { type: 'button', class: 'ghost icon', 'aria-label': 'First page' }, '«');
  private readonly last = h('button', { type: 'button', class: 'ghost icon', 'aria-label': 'Last page' }, '»');
  private readonly pager = h(
    'div',
    { class: 'pager' },
    h('span', null, this.first, this.prev),
    this.range,
    h('span', null, this.next, this.last),
  );
  private total = 0;
  private page = 0;
  private scope = '';
  private generation = 0;
  private everything: { scope: string; sessions: Session[] } | undefined;
  private seen = new Map<string, number>();

  constructor(
    private readonly inspector: Inspector,
    /** True when the store holds no app at all (the empty state then says how to start). */
    private readonly storeIsEmpty: () => boolean,
  ) {
    let typing: ReturnType<typeof setTimeout> | undefined;
    this.filter.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => {
        this.page = 0;
        void this.refresh();
      }, 150);
    });
    this.order.addEventListener('change', () => {
      this.page = 0;
      this.everything = undefined;
      void this.refresh();
    });
    this.prev.addEventListener('click', () => this.turn(this.page - 1));
    this.next.addEventListener('click', () => this.turn(this.page + 1));
    this.first.addEventListener('click', () => this.turn(0));
    this.last.addEventListener('click', () => this.turn(Math.ceil(this.total / PAGE_SIZE) - 1));
    arrowKeys(this.list, 'a');
    this.el = h(
      'section',
      { class: 'sessions pane', 'aria-label': 'Sessions' },
      h('div', { class: 'pane-head' }, this.title, this.order),
      h('div', { class: 'filter-row' }, this.filter),
      this.list,
      this.pager,
    );
  }

  focusFilter(): void {
    this.filter.focus();
    this.filter.select();
  }

  private turn(page: number): void {
    this.page = Math.max(0, page);
    void this.refresh().then(() => this.list.querySelector('a')?.focus());
  }

  /** Forgets the filtered listing, so the next refresh reads the store again. */
  invalidate(): void {
    this.everything = undefined;
  }

  async refresh(): Promise<void> {
    const selection = this.inspector.selection();
    const scope = `${selection.app ?? ''}\u0000${selection.user ?? ''}`;
    if (scope !== this.scope) {
      this.scope = scope;
      this.page = 0;
      this.everything = undefined;
      this.seen.clear();
    }
    replace(
      this.title,
      'Sessions',
      selection.app ? h('span', { class: 'pane-sub' }, selection.user ? `of ${selection.user}` : 'all users') : null,
    );
    const generation = ++this.generation;
    if (!selection.app) {
      this.renderEmpty(
        this.storeIsEmpty()
          ? 'The store is empty. Start a conversation with New session, fill it with Generate sample data, or Import a file.'
          : 'Pick an app on the left to list its sessions.',
      );
      return;
    }
    const loaded = await this.load(selection.app, selection.user);
    if (generation !== this.generation) return;
    this.render(loaded, selection);
  }

  private async load(appName: string, userId: string | undefined): Promise<Loaded> {
    const { store } = this.inspector;
    const order = this.order.value === 'asc' ? 'asc' : 'desc';
    const filter = parseFilter(this.filter.value);
    const owner = userId !== undefined ? { userId } : {};
    if (filter.kind === 'none') {
      let listed = await store.listSessions({
        appName,
        ...owner,
        limit: PAGE_SIZE,
        offset: this.page * PAGE_SIZE,
        order,
      });
      if (listed.sessions.length === 0 && this.page > 0 && listed.totalItems > 0) {
        // The page emptied under us (deletions elsewhere): show the last one that has sessions.
        this.page = Math.max(0, Math.ceil(listed.totalItems / PAGE_SIZE) - 1);
        listed = await store.listSessions({
          appName,
          ...owner,
          limit: PAGE_SIZE,
          offset: this.page * PAGE_SIZE,
          order,
        });
      }
      return { sessions: listed.sessions, total: listed.totalItems };
    }
    const key = `${this.scope}\u0000${order}`;
    if (this.everything?.scope !== key) {
      const all = await store.listSessions({ appName, ...owner, order });
      this.everything = { scope: key, sessions: all.sessions };
    }
    const matching = this.everything.sessions.filter((s) => matchesFilter(s, filter));
    const lastPage = Math.max(0, Math.ceil(matching.length / PAGE_SIZE) - 1);
    this.page = Math.min(this.page, lastPage);
    return {
      sessions: matching.slice(this.page * PAGE_SIZE, (this.page + 1) * PAGE_SIZE),
      total: matching.length,
      scanned: this.everything.sessions.length,
    };
  }

  private renderEmpty(text: string): void {
    replace(this.list, h('li', { class: 'empty' }, text));
    this.pager.hidden = true;
  }

  private render(loaded: Loaded, selection: Selection): void {
    const { sessions, total, scanned } = loaded;
    const filtered = scanned !== undefined;
    if (sessions.length === 0) {
      this.renderEmpty(
        filtered
          ? `No session matches "${this.filter.value.trim()}" (searched ${formatCount(scanned)}).`
          : `No sessions ${selection.user ? `for ${selection.user}` : `in ${selection.app}`} yet. Create one with New session, or use Generate sample data.`,
      );
      return;
    }
    const focusedHref = this.list.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).getAttribute('href')
      : null;
    const now = Date.now();
    // Patched, not rebuilt: a row clicked while a change re-renders the list still opens (see patch).
    patch(
      this.list,
      sessions.map((s) => {
        const changed = this.seen.has(s.id) && this.seen.get(s.id) !== s.lastUpdateTime;
        this.seen.set(s.id, s.lastUpdateTime);
        return h('li', { 'data-key': JSON.stringify([s.userId, s.id]) }, this.row(s, selection, now, changed));
      }),
    );
    if (focusedHref) this.list.querySelector<HTMLElement>(`a[href="${CSS.escape(focusedHref)}"]`)?.focus();
    const from = this.page * PAGE_SIZE + 1;
    const to = from + sessions.length - 1;
    this.pager.hidden = false;
    this.range.textContent = `${formatCount(from)}–${formatCount(to)} of ${formatCount(total)}${filtered ? ` matching (of ${formatCount(scanned)})` : ''}`;
    this.total = total;
    this.prev.disabled = this.first.disabled = this.page === 0;
    this.next.disabled = this.last.disabled = to >= total;
  }

  private row(s: Session, selection: Selection, now: number, changed: boolean): HTMLAnchorElement {
    const sessionKeys = Object.keys(s.state).filter((k) => !k.includes(':'));
    const keyCount = Object.keys(s.state).length;
    return h(
      'a',
      {
        href: formatHash({ ...selection, session: { userId: s.userId, id: s.id } }),
        class: changed ? 'session-row flash' : 'session-row',
        'aria-current': selection.session?.id === s.id && selection.session.userId === s.userId ? 'page' : undefined,
      },
      h(
        'span',
        { class: 'row-main' },
        h('span', { class: 'mono row-id', title: s.id }, s.id),
        h(
          'time',
          { class: 'row-time', 'data-ms': s.lastUpdateTime, title: new Date(s.lastUpdateTime).toISOString() },
          relativeTime(s.lastUpdateTime, now),
        ),
      ),
      h(
        'span',
        { class: 'row-sub' },
        selection.user ? null : h('span', { class: 'mono row-user' }, s.userId),
        h('span', null, `${keyCount} state key${keyCount === 1 ? '' : 's'}`),
        sessionKeys.slice(0, 2).map((k) => h('span', { class: 'mono row-kv' }, `${k}=${preview(s.state[k], 24)}`)),
      ),
    );
  }
}
