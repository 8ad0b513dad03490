/** A session's merged state, one table per scope, each key with the event that last set it. */
import type { Event, Session } from '../src/index.js';
import { h } from './dom.js';
import { clockTime } from './format.js';
import { jsonBlock, jsonInline } from './json-view.js';
import { SCOPES, type Scope, type StateEntry, stateByScope } from './state-scopes.js';

const SCOPE_INFO: Record<Exclude<Scope, 'temp'>, { title: string; prefix: string; note: (s: Session) => string }> = {
  app: { title: 'App', prefix: 'app:', note: (s) => `Shared by every user and session of ${s.appName}.` },
  user: { title: 'User', prefix: 'user:', note: (s) => `Shared by every session of ${s.userId} in ${s.appName}.` },
  session: { title: 'Session', prefix: 'no prefix', note: () => 'This session only.' },
};

export interface StatePanelOptions {
  /** True when every event of the session is loaded (so "not set by an event" is certain for session keys). */
  complete: boolean;
  /** Brings an event of the timeline into view. */
  reveal: (eventId: string) => void;
}

function origin(entry: StateEntry, options: StatePanelOptions): HTMLElement {
  const event: Event | undefined = entry.setBy;
  if (event) {
    return h(
      'button',
      {
        type: 'button',
        class: 'link origin',
        title: `Show event ${event.id}`,
        onclick: () => options.reveal(event.id),
      },
      h('span', { class: 'origin-author' }, event.author ?? '(no author)'),
      h('span', { class: 'sr-only' }, ' at '),
      h('span', { class: 'origin-time' }, clockTime(event.timestamp)),
    );
  }
  const why =
    entry.scope === 'session'
      ? options.complete
        ? 'at creation'
        : 'an earlier event'
      : options.complete
        ? 'another session or creation'
        : 'earlier or elsewhere';
  return h('span', { class: 'muted' }, why);
}

function valueView(value: unknown): HTMLElement {
  const oneLine = JSON.stringify(value);
  if (oneLine.length <= 60) return jsonInline(value, 60);
  return h('details', { class: 'value-more' }, h('summary', null, jsonInline(value, 48)), jsonBlock(value));
}

export function statePanel(session: Session, options: StatePanelOptions): HTMLElement[] {
  const grouped = stateByScope(session);
  const groups = SCOPES.map((scope) => {
    const info = SCOPE_INFO[scope];
    const entries = grouped[scope];
    const headingId = `scope-${scope}-title`;
    return h(
      'section',
      { class: `scope-group scope-${scope}`, 'aria-labelledby': headingId },
      h(
        'h3',
        { class: 'scope-title', id: headingId },
        h('span', { class: 'scope-dot', 'aria-hidden': 'true' }),
        `${info.title} state`,
        h('span', { class: 'mono scope-prefix' }, info.prefix),
        h('span', { class: 'scope-count' }, `${entries.length} key${entries.length === 1 ? '' : 's'}`),
      ),
      h('p', { class: 'scope-note' }, info.note(session)),
      entries.length === 0
        ? h('p', { class: 'scope-empty' }, 'No keys.')
        : h(
            'table',
            { class: 'state-table' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, 'Key'),
                h('th', { scope: 'col' }, 'Value'),
                h('th', { scope: 'col' }, 'Set by'),
              ),
            ),
            h(
              'tbody',
              null,
              entries.map((e) =>
                h(
                  'tr',
                  { 'data-key': e.key },
                  h('th', { scope: 'row', class: 'mono state-key', title: e.key }, e.name),
                  h('td', { class: 'state-value' }, valueView(e.value)),
                  h('td', { class: 'state-origin' }, origin(e, options)),
                ),
              ),
            ),
          ),
    );
  });
  return [
    ...groups,
    h(
      'p',
      { class: 'scope-note temp-note' },
      h('span', { class: 'mono' }, 'temp:'),
      ' keys live for one invocation: the rest of the turn reads them, nothing stores them.',
    ),
  ];
}
