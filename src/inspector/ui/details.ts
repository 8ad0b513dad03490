/** The selected event: what it is, when, what it changed in the state (before and after), and its JSON. */
import { h } from 'preact';
import type { Event } from '../../index.js';
import { duration, humanTime, inline } from './format.js';
import { CopyButton, JsonTree } from './json-tree.js';
import { kindsOf } from './model.js';
import { type DiffLine, diffOf } from './state.js';

function Diff(props: { lines: DiffLine[] }) {
  if (props.lines.length === 0) return h('p', { class: 'muted' }, 'This event changes no state.');
  return h(
    'table',
    { class: 'diff' },
    h('caption', null, 'State before and after'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'Key'),
        h('th', { scope: 'col' }, 'Before'),
        h('th', { scope: 'col' }, 'After'),
      ),
    ),
    h(
      'tbody',
      null,
      props.lines.map((line) =>
        h(
          'tr',
          { key: line.key, class: `d-${line.change}` },
          h('th', { scope: 'row', title: line.key }, line.key),
          h(
            'td',
            { class: 'd-before' },
            line.before === undefined
              ? '(absent)'
              : line.before.known
                ? inline(line.before.value)
                : '(not set by an earlier event)',
          ),
          h('td', { class: 'd-after' }, inline(line.after), line.change === 'unchanged' ? ' (same)' : ''),
        ),
      ),
    ),
  );
}

export function EventDetails(props: {
  events: readonly Event[];
  index: number;
  /** `events` are all of the session's (else its newest, still joining the rest). */
  complete: boolean;
  /** A rewind undid the event (or the event is a rewind a later one undid). */
  rewound: boolean;
  state: Readonly<Record<string, unknown>>;
  toolTime: { tool: string; ms: number } | undefined;
}) {
  const event = props.events[props.index];
  if (!event) return h('p', { class: 'muted' }, 'Select an event to see its details and the state after it.');
  const kinds = [...kindsOf(event)];
  return h(
    'div',
    { class: 'details' },
    h(
      'h3',
      null,
      props.complete
        ? `Event #${props.index + 1} of ${props.events.length}`
        : `One of the newest ${props.events.length} events`,
    ),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'Id'),
      h('dd', { class: 'mono' }, event.id),
      h('dt', null, 'Author'),
      h('dd', null, event.author ?? '(none)'),
      h('dt', null, 'Time'),
      h('dd', null, humanTime(event.timestamp)),
      h('dt', null, 'Invocation'),
      h('dd', { class: 'mono' }, event.invocationId ?? '(none)'),
      h('dt', null, 'Kind'),
      h('dd', null, kinds.length ? kinds.join(', ') : 'other'),
      props.rewound
        ? [h('dt', null, 'Rewound'), h('dd', null, "Undone by a rewind: ADK's model no longer sees it")]
        : null,
      props.toolTime
        ? [h('dt', null, 'Tool time'), h('dd', null, `${props.toolTime.tool}: ${duration(props.toolTime.ms)}`)]
        : null,
    ),
    h(Diff, { lines: diffOf(props.events, props.state, props.index) }),
    h(
      'div',
      { class: 'json-head' },
      h('h4', null, 'Event JSON'),
      h(CopyButton, { text: () => JSON.stringify(event, null, 2), label: 'Copy event as JSON' }),
    ),
    h(JsonTree, { value: event, label: 'Event JSON' }),
  );
}
