/**
 * The left pane: apps, then the selected app's users, each with its session count. Both lists
 * re-render on every change notice, so they are patched, not rebuilt: a pick made while a change
 * lands (sample data streaming in, another tab writing) still selects (see `patch`).
 */
import type { AppSummary, UserSummary } from '../src/index.js';
import type { Inspector } from './context.js';
import { arrowKeys, h, patch, replace } from './dom.js';
import { formatCount } from './format.js';
import { formatHash } from './route.js';

/** Users listed at most; a bigger app's other users are reached from their sessions. */
const MAX_USERS = 500;

export class Sidebar {
  readonly el: HTMLElement;
  private readonly apps = h('ul', { class: 'nav-list', 'aria-label': 'Apps' });
  private readonly users = h('ul', { class: 'nav-list', 'aria-label': 'Users' });
  private readonly usersHeading = h('h2', { class: 'pane-title' }, 'Users');
  private readonly usersSection = h('section', { class: 'nav-section' }, this.usersHeading, this.users);
  private loaded: { apps: AppSummary[]; users: UserSummary[]; usersOf: string | undefined } = {
    apps: [],
    users: [],
    usersOf: undefined,
  };

  constructor(
    private readonly inspector: Inspector,
    ...panels: HTMLElement[]
  ) {
    arrowKeys(this.apps, 'a');
    arrowKeys(this.users, 'a');
    this.el = h(
      'nav',
      { class: 'sidebar', 'aria-label': 'Apps and users' },
      h('section', { class: 'nav-section' }, h('h2', { class: 'pane-title' }, 'Apps'), this.apps),
      this.usersSection,
      ...panels,
    );
  }

  get appSummaries(): AppSummary[] {
    return this.loaded.apps;
  }

  /** Reads apps (and the selected app's users) from the store, then renders. */
  async refresh(): Promise<void> {
    const { store } = this.inspector;
    const app = this.inspector.selection().app;
    const [apps, users] = await Promise.all([
      store.listApps(),
      app ? store.listUsers({ appName: app, limit: MAX_USERS }) : Promise.resolve([]),
    ]);
    this.loaded = { apps, users, usersOf: app };
    this.render();
  }

  /** Re-renders what was loaded (after the selection changed). */
  render(): void {
    const selection = this.inspector.selection();
    const { apps, users, usersOf } = this.loaded;
    const focused = document.activeElement;
    const hadFocus = this.el.contains(focused);
    if (apps.length === 0) {
      patch(this.apps, h('li', { class: 'nav-empty' }, 'No apps yet.'));
    } else {
      patch(
        this.apps,
        apps.map((a) =>
          h(
            'li',
            { 'data-key': `app:${a.appName}` },
            navLink(formatHash({ app: a.appName }), a.appName, a.sessionCount, selection.app === a.appName, 'app'),
          ),
        ),
      );
    }
    this.usersSection.hidden = !selection.app;
    if (selection.app) {
      replace(this.usersHeading, 'Users ', h('span', { class: 'pane-sub' }, `in ${selection.app}`));
      const total = apps.find((a) => a.appName === selection.app)?.sessionCount ?? 0;
      const open = selection.session;
      const rows = [
        // Widening the list to every user keeps the open session open.
        h(
          'li',
          { 'data-key': 'all' },
          navLink(
            formatHash({ app: selection.app, ...(open ? { session: open } : {}) }),
            'All users',
            total,
            !selection.user,
            'all',
          ),
        ),
        ...(usersOf === selection.app ? users : []).map((u) =>
          h(
            'li',
            { 'data-key': `user:${u.userId}` },
            navLink(
              formatHash({ app: u.appName, user: u.userId, ...(open?.userId === u.userId ? { session: open } : {}) }),
              u.userId,
              u.sessionCount,
              selection.user === u.userId,
              'user',
            ),
          ),
        ),
      ];
      if (users.length >= MAX_USERS) {
        rows.push(
          h(
            'li',
            { class: 'nav-empty', 'data-key': 'more' },
            `First ${MAX_USERS} users shown; pick others from their sessions.`,
          ),
        );
      }
      patch(this.users, rows);
    }
    if (hadFocus && focused instanceof HTMLAnchorElement) {
      // Keep keyboard focus on the same entry across a re-render.
      const again = [...this.el.querySelectorAll('a')].find(
        (a) => a.getAttribute('href') === focused.getAttribute('href'),
      );
      again?.focus();
    }
  }
}

function navLink(href: string, label: string, count: number, current: boolean, kind: string): HTMLAnchorElement {
  return h(
    'a',
    {
      href,
      class: `nav-link nav-${kind}`,
      'aria-current': current ? 'page' : undefined,
      title: label,
    },
    h('span', { class: kind === 'all' ? 'nav-label' : 'nav-label mono' }, label),
    h('span', { class: 'badge' }, formatCount(count)),
    h('span', { class: 'sr-only' }, count === 1 ? ' session' : ' sessions'),
  );
}
