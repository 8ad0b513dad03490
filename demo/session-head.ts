/**
 * The parts of the session pane made of one session's data alone: its title
 * line, and what shows in its place when there is none.
 */
import type { Session } from '../src/index.js';
import { h } from './dom.js';
import { dateTime, relativeTime } from './format.js';
import { formatHash, type Selection } from './route.js';

/** The session's id, app, user and last update, linked to their listings. */
export function sessionTitle(session: Session): HTMLElement {
  return h(
    'div',
    { class: 'detail-title' },
    h('h2', { class: 'mono session-id', title: session.id }, session.id),
    h(
      'p',
      { class: 'meta' },
      h('span', null, 'app ', h('a', { class: 'mono', href: formatHash({ app: session.appName }) }, session.appName)),
      h(
        'span',
        null,
        'user ',
        h('a', { class: 'mono', href: formatHash({ app: session.appName, user: session.userId }) }, session.userId),
      ),
      h(
        'span',
        null,
        'updated ',
        h(
          'time',
          { 'data-ms': session.lastUpdateTime, title: dateTime(session.lastUpdateTime) },
          relativeTime(session.lastUpdateTime, Date.now()),
        ),
      ),
    ),
  );
}

/** What the pane shows without a session: why (deleted, missing), or how to start. */
export function placeholderContent(why: 'deleted' | 'missing' | null, key: Selection): Node[] {
  const id = key.session?.id ?? '';
  if (why === 'deleted') {
    return [
      h('h2', null, 'Session deleted'),
      h('p', null, 'Session ', h('span', { class: 'mono' }, id), ' was deleted, here or in another tab.'),
    ];
  } else if (why === 'missing') {
    return [
      h('h2', null, 'No such session'),
      h(
        'p',
        null,
        'Session ',
        h('span', { class: 'mono' }, id),
        ` does not exist for ${key.session?.userId} in ${key.app}.`,
      ),
    ];
  } else {
    return [
      h('h2', null, 'No session selected'),
      h('p', null, 'Pick a session from the list to see its events and its state by scope.'),
      h(
        'ul',
        { class: 'tips' },
        h('li', null, h('kbd', null, 'New session'), ' starts a conversation with the offline demo agent.'),
        h('li', null, h('kbd', null, 'Generate sample data'), ' fills the store with many sessions.'),
        h(
          'li',
          null,
          h('kbd', null, 'Import'),
          ' loads a file made by Export. You can also drop the file on the page.',
        ),
        h('li', null, 'Open this page in a second tab: changes show up in both, live.'),
      ),
    ];
  }
}
