/** The timeline's filters: author, tool, and kinds of event (any of those checked). */
import { h } from 'preact';
import type { Event } from '../../index.js';
import { distinct, type EventKind, FILTER_KINDS, type Filters as FilterValues, toolsOf } from './model.js';

export function Filters(props: {
  events: readonly Event[];
  filters: FilterValues;
  onChange(update: (filters: FilterValues) => FilterValues): void;
}) {
  const { filters } = props;
  const authors = distinct(props.events.map((e) => e.author));
  const tools = distinct(props.events.flatMap(toolsOf));
  // Updates from the latest filters, not this render's: two quick clicks both count.
  const toggle = (kind: EventKind) =>
    props.onChange((current) => {
      const kinds = new Set(current.kinds);
      if (kinds.has(kind)) kinds.delete(kind);
      else kinds.add(kind);
      return { ...current, kinds };
    });
  return h(
    'div',
    { class: 'filters' },
    h(
      'label',
      null,
      'Author',
      h(
        'select',
        {
          value: filters.author,
          onChange: (e: { currentTarget: HTMLSelectElement }) => {
            const author = e.currentTarget.value;
            props.onChange((current) => ({ ...current, author }));
          },
        },
        h('option', { value: '' }, 'Any author'),
        authors.map((a) => h('option', { key: a, value: a }, a)),
      ),
    ),
    h(
      'label',
      null,
      'Tool',
      h(
        'select',
        {
          value: filters.tool,
          onChange: (e: { currentTarget: HTMLSelectElement }) => {
            const tool = e.currentTarget.value;
            props.onChange((current) => ({ ...current, tool }));
          },
        },
        h('option', { value: '' }, 'Any tool'),
        tools.map((t) => h('option', { key: t, value: t }, t)),
      ),
    ),
    h(
      'fieldset',
      { class: 'kinds' },
      h('legend', null, 'Kind'),
      FILTER_KINDS.map((kind) =>
        h(
          'label',
          { key: kind },
          h('input', { type: 'checkbox', checked: filters.kinds.has(kind), onChange: () => toggle(kind) }),
          kind,
        ),
      ),
    ),
  );
}
