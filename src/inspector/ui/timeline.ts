/**
 * The session's events, grouped by invocation, as a virtualised list: only the
 * rows in view (and a few around them) are in the DOM, however long the
 * session, so opening one of 10,000 events costs what opening one of 50 does.
 * It follows new events while scrolled to the end, and stops following as soon
 * as the reader scrolls up. From the keyboard it is one tab stop: the arrow
 * keys, Home and End select the previous, next, first and last event shown and
 * move the focus to it (a row out of view is scrolled to first); each row says its
 * place among the events (`aria-posinset` / `aria-setsize`), since a screen
 * reader sees only the rows in the DOM.
 */
import { h } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Event } from '../../index.js';
import { clockTime, duration } from './format.js';
import { kindsOf, type Row, summaryOf } from './model.js';

/** Every row's height in px (the stylesheet sets the same): what makes the window arithmetic exact. */
export const ROW_HEIGHT = 28;
const OVERSCAN = 8;

interface Props {
  events: readonly Event[];
  rows: readonly Row[];
  selected: number | undefined;
  toolTimes: Map<number, { tool: string; ms: number }>;
  /** `events` are all of the session's, so a row's position is its number in the session. */
  numbered: boolean;
  /** The ids of the events a rewind undid (and of the rewinds): shown struck through. */
  rewound: ReadonlySet<string>;
  onSelect(index: number): void;
}

function EventRow(props: {
  event: Event;
  index: number;
  numbered: boolean;
  rewound: boolean;
  selected: boolean;
  tool: string | undefined;
  onSelect(i: number): void;
}) {
  const { event, index, selected } = props;
  const kinds = [...kindsOf(event)].filter((k) => k !== 'message');
  return h(
    'button',
    {
      type: 'button',
      class: props.rewound ? 'ev rewound' : 'ev',
      'aria-pressed': selected,
      'data-index': index,
      tabIndex: -1,
      onClick: () => props.onSelect(index),
    },
    // Numbered once the whole session is read: a number from the newest window alone would change.
    h('span', { class: 'ev-n' }, props.numbered ? `#${index + 1}` : ''),
    h('span', { class: 'ev-time' }, clockTime(event.timestamp)),
    h('span', { class: 'ev-author' }, event.author ?? '?'),
    kinds.map((k) => h('span', { key: k, class: `tag tag-${k}` }, k)),
    props.rewound ? h('span', { class: 'tag tag-rewound' }, 'rewound') : null,
    props.tool === undefined ? null : h('span', { class: 'tag tag-dur' }, props.tool),
    h('span', { class: 'ev-text' }, summaryOf(event)),
  );
}

export function Timeline(props: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 400 });
  const follow = useRef(true);
  /** The keyboard moved the selection: its row takes the focus once rendered. */
  const focusSelected = useRef(false);
  const { rows } = props;
  // Each event row's place among the events shown (the list also holds invocation headings).
  const order = useMemo(() => rows.flatMap((row) => (row.type === 'event' ? [row.index] : [])), [rows]);
  const place = useMemo(() => new Map(order.map((index, at) => [index, at])), [order]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // New rows while following: keep the newest in view (runs when the row count changes).
  useLayoutEffect(() => {
    const el = scroller.current;
    // Nothing to follow in an empty list; reading its height would only force a layout of the page.
    if (el && follow.current && rows.length > 0) {
      el.scrollTop = el.scrollHeight;
      setView({ top: el.scrollTop, height: el.clientHeight });
    }
  }, [rows.length]);

  // A selection made elsewhere (a search hit, the keyboard) is scrolled into view in the same frame.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the selection changes, not on every new row.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || props.selected === undefined) return;
    const at = rows.findIndex((row) => row.type === 'event' && row.index === props.selected);
    if (at < 0) return;
    const top = at * ROW_HEIGHT;
    if (top >= el.scrollTop && top + ROW_HEIGHT <= el.scrollTop + el.clientHeight) return;
    follow.current = false;
    el.scrollTop = Math.max(0, top - el.clientHeight / 2);
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [props.selected]);

  // After every render: the selected row may have just been rendered.
  useLayoutEffect(() => {
    if (!focusSelected.current || props.selected === undefined) return;
    const row = scroller.current?.querySelector<HTMLElement>(`.ev[data-index="${props.selected}"]`);
    if (!row) return;
    focusSelected.current = false;
    row.focus({ preventScroll: true });
  });

  const onKeyDown = (e: KeyboardEvent) => {
    const at = props.selected === undefined ? -1 : (place.get(props.selected) ?? -1);
    const last = order.length - 1;
    const to =
      e.key === 'ArrowDown'
        ? Math.min(last, at + 1)
        : e.key === 'ArrowUp'
          ? Math.max(0, at - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : undefined;
    if (to === undefined || last < 0) return;
    e.preventDefault();
    focusSelected.current = true;
    props.onSelect(order[to] as number);
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    follow.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
    setView({ top: el.scrollTop, height: el.clientHeight });
  };

  // Following, the newest rows are rendered at once: the list is not laid out twice, at the old place then the new.
  const top = follow.current ? Math.max(0, rows.length * ROW_HEIGHT - view.height) : view.top;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((top + view.height) / ROW_HEIGHT) + OVERSCAN);
  const items = [];
  for (let i = first; i < last; i += 1) {
    const row = rows[i] as Row;
    const at = { transform: `translateY(${i * ROW_HEIGHT}px)` };
    if (row.type === 'invocation') {
      items.push(
        h(
          'li',
          { key: `inv-${i}-${row.invocationId}`, class: 'inv', style: at },
          h('span', { class: 'inv-id', title: row.invocationId }, `Invocation ${row.invocationId || '(none)'}`),
          h('span', { class: 'inv-meta' }, `${row.count} events · ${duration(row.durationMs)}`),
        ),
      );
    } else {
      const event = props.events[row.index] as Event;
      const tool = props.toolTimes.get(row.index);
      items.push(
        h(
          'li',
          {
            key: `ev-${event.id}`,
            style: at,
            'aria-posinset': (place.get(row.index) ?? 0) + 1,
            'aria-setsize': order.length,
          },
          h(EventRow, {
            event,
            index: row.index,
            numbered: props.numbered,
            rewound: props.rewound.has(event.id),
            selected: props.selected === row.index,
            tool: tool ? `${tool.tool} ${duration(tool.ms)}` : undefined,
            onSelect: props.onSelect,
          }),
        ),
      );
    }
  }
  return h(
    'div',
    // The list is one tab stop (its rows are reached with the arrow keys): a row out of view is not in the DOM.
    { class: 'scroller', ref: scroller, onScroll, onKeyDown, tabIndex: 0, role: 'group', 'aria-label': 'Event list' },
    rows.length === 0
      ? h('p', { class: 'empty' }, 'No events to show.')
      : h('ul', { class: 'rows', 'aria-label': 'Events', style: { height: `${rows.length * ROW_HEIGHT}px` } }, items),
  );
}
