/** The timeline's filters: author, tool, and kinds of event (any of those checked). */
import { h } from 'preact';
import type { Event } from '../../index.js';
import { distinct, type EventKind, FILTER_KINDS, type Filters as FilterValues, toolsOf } from './model.js';

/** A labelled select of `values`, with `any` (the empty value) first. */
function Choice(label: string, any: string, values: readonly string[], value: string, pick: (value: string) => void) {
  return h(
    'label',
    null,
    label,
    h(
      'select',
      { value, onChange: (e: { currentTarget: HTMLSelectElement }) => pick(e.currentTarget.value) },
      h('option', { value: '' }, any),
      values.map((v) => h('option', { key: v, value: v }, v)),
    ),
  );
}

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
    Choice('Author', 'Any author', authors, filters.author, (author) =>
      props.onChange((current) => ({ ...current, author })),
    ),
    Choice('Tool', 'Any tool', tools, filters.tool, (tool) => props.onChange((current) => ({ ...current, tool }))),
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
