/**
 * Every scope's state after the selected event (time travel; see state.ts for
 * how app and user scopes are rebuilt and what cannot be known), or now when
 * no event is selected. With writes allowed, a form sets a key the ADK way: an
 * event by the author `inspector` whose `stateDelta` holds it.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { Event, Session, SessionStore } from '../../index.js';
import { inline } from './format.js';
import { byScope, type KeyState, SCOPES, stateAfter } from './state.js';

const TITLES = { app: 'App state', user: 'User state', session: 'Session state' } as const;

function origin(state: KeyState): string {
  if (!state.known) return `unknown: first set by #${state.firstSetBy + 1}`;
  return state.setBy === undefined ? 'not set in this session' : `set by #${state.setBy + 1}`;
}

function SetKey(props: { store: SessionStore; session: Session }) {
  const [message, setMessage] = useState('');
  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const key = String(form.get('key') ?? '');
    const value = String(form.get('value') ?? '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = value;
    }
    try {
      const session = await props.store.getSession({
        appName: props.session.appName,
        userId: props.session.userId,
        sessionId: props.session.id,
      });
      if (!session) throw new Error('the session no longer exists');
      await props.store.appendEvent({
        session,
        event: {
          id: crypto.randomUUID(),
          invocationId: `inspector-${crypto.randomUUID()}`,
          author: 'inspector',
          timestamp: Date.now(),
          actions: { stateDelta: { [key]: parsed } },
        },
      });
      setMessage(`Set ${key}.`);
    } catch (error) {
      setMessage(`Not set: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return h(
    'form',
    { class: 'set-key', onSubmit: submit, 'aria-label': 'Set a state key' },
    h('label', null, 'Key', h('input', { name: 'key', required: true })),
    h('label', null, 'Value (JSON)', h('input', { name: 'value' })),
    h('button', { type: 'submit' }, 'Set'),
    h('p', { role: 'status', class: 'muted' }, message),
  );
}

export function Scopes(props: {
  store: SessionStore;
  session: Session;
  events: readonly Event[];
  at: number | undefined;
  allowWrites: boolean;
}) {
  const index = props.at ?? props.events.length - 1;
  const scoped = byScope(stateAfter(props.events, props.session.state, index));
  const heading = props.at === undefined ? 'State now' : `State after event #${props.at + 1}`;
  return h(
    'div',
    { class: 'scopes' },
    h('h3', null, heading),
    SCOPES.map((scope) =>
      h(
        'table',
        { key: scope, class: 'scope', 'data-scope': scope },
        h('caption', null, TITLES[scope]),
        h(
          'tbody',
          null,
          scoped[scope].size === 0
            ? h('tr', null, h('td', { colSpan: 3, class: 'muted' }, 'Empty'))
            : [...scoped[scope]].map(([key, state]) =>
                h(
                  'tr',
                  { key },
                  h('th', { scope: 'row', title: key }, key),
                  h('td', { class: 'mono' }, state.known ? inline(state.value) : '?'),
                  h('td', { class: 'muted' }, origin(state)),
                ),
              ),
        ),
      ),
    ),
    props.allowWrites ? h(SetKey, { store: props.store, session: props.session }) : null,
  );
}
