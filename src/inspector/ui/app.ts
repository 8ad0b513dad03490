/**
 * The inspector's views, loaded by `mountInspector` on first open (this module
 * and what it imports are a chunk of their own, Preact with them). Everything
 * shown is read through the package's public API: live queries for the
 * selected session and the session list, reads redone on the store's change
 * notices for the rest. Nothing the store holds is rendered as HTML: Preact
 * writes text nodes for every string.
 */
import { type ComponentChildren, h, render } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks';
import { rewoundEventIds, type SessionKey, type SessionStore } from '../../index.js';
import type { ResolvedInspectorOptions } from '../options.js';
import { EventDetails } from './details.js';
import { Drafts } from './drafts.js';
import { Artifacts, Memory, Sync } from './extras.js';
import { Filters } from './filters.js';
import { type FirstView, firstView, selectionOf } from './first-view.js';
import { noFilters, rowsOf, toolDurations } from './model.js';
import { Pickers, type Selection } from './pickers.js';
import { Scopes } from './scopes.js';
import { type Found, SearchForm, SearchResults, search, type UserHit } from './search.js';
import { useSessionEvents } from './session-events.js';
import { INSPECTOR_CSS } from './styles.js';
import { Timeline } from './timeline.js';

function Fold(props: { title: string; open?: boolean; children?: ComponentChildren }) {
  return h('details', { class: 'fold', open: props.open ?? false }, h('summary', null, props.title), props.children);
}

/**
 * False until the first frame is painted: the details and the side panels wait for it, so the
 * first frame lays out and paints the newest events alone. Preact runs effects after the paint.
 */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => setPainted(true), []);
  return painted;
}

function Inspector(props: {
  store: SessionStore;
  options: ResolvedInspectorOptions;
  shown?: SessionKey;
  /** What to show first, its session already being read (only at mount). */
  first?: FirstView;
}) {
  const { store, options, shown, first } = props;
  const [selection, setSelection] = useState<Selection>(
    () => first?.selection ?? { appName: undefined, userId: undefined, session: undefined },
  );
  // The selected event by id: its position moves when the rest of a long session joins the newest events.
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const [pendingEvent, setPendingEvent] = useState<string | undefined>(undefined);
  const [filters, setFilters] = useState(noFilters);
  const [found, setFound] = useState<Found | undefined>(undefined);

  const painted = usePainted();
  const { appName, session: key } = selection;
  const view = useSessionEvents(
    store,
    appName && key ? { appName, userId: key.userId, sessionId: key.sessionId } : undefined,
    first?.warm,
  );
  // After the session's query is subscribed above: the hold that kept it running until then goes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at mount.
  useLayoutEffect(() => first?.warm?.release(), []);
  const { session, events } = view;
  const rows = useMemo(() => rowsOf(events, filters), [events, filters]);
  const toolTimes = useMemo(() => toolDurations(events), [events]);
  const rewound = useMemo(() => rewoundEventIds(events), [events]);
  const selected = useMemo(() => {
    const index = selectedId === undefined ? -1 : events.findIndex((e) => e.id === selectedId);
    return index < 0 ? undefined : index;
  }, [events, selectedId]);
  const setSelected = (index: number | undefined) => setSelectedId(index === undefined ? undefined : events[index]?.id);

  // A search hit names an event by id: select it once its session is read.
  useEffect(() => {
    if (pendingEvent === undefined || !session || session.id !== key?.sessionId) return;
    const index = events.findIndex((e) => e.id === pendingEvent);
    if (index < 0 && !view.complete) return;
    setPendingEvent(undefined);
    if (index >= 0) setSelectedId(pendingEvent);
  }, [pendingEvent, session, key?.sessionId, events, view.complete]);

  const select = (next: Selection) => {
    if (
      next.appName !== selection.appName ||
      next.session?.sessionId !== key?.sessionId ||
      next.session?.userId !== key?.userId
    )
      setSelectedId(undefined);
    setSelection(next);
  };
  // The app moved to another session (`showSession`): each call is a new object, so the same session twice selects it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the app asks, not when the selection changes.
  useEffect(() => {
    if (shown) select(selectionOf(shown));
  }, [shown]);
  const openHit = (hit: UserHit) => {
    select({ ...selection, session: { userId: hit.userId, sessionId: hit.sessionId } });
    setPendingEvent(hit.eventId);
  };
  // Results answer the app and user picked: another user searches again for the same words, another app clears them.
  useEffect(() => {
    if (!found) return;
    if (found.appName !== appName || !appName) return setFound(undefined);
    if (found.userId === selection.userId) return;
    let live = true;
    search(store, appName, selection.userId, found.query).then((next) => live && setFound(next));
    return () => {
      live = false;
    };
  }, [found, appName, selection.userId, store]);
  const at = appName && key ? { appName, userId: key.userId, sessionId: key.sessionId } : undefined;

  return h(
    'div',
    { class: 'inspector' },
    h(
      'div',
      { class: 'bar' },
      h('h2', null, 'Session inspector'),
      h(Pickers, {
        store,
        selection,
        onSelect: select,
        allowWrites: options.allowWrites,
        missing: view.status === 'ready' && !session,
      }),
      h(SearchForm, {
        store,
        appName,
        userId: selection.userId,
        onResults: setFound,
      }),
      options.position === 'full'
        ? null
        : h('button', { type: 'button', class: 'close', onClick: options.onClose }, 'Close'),
    ),
    h(
      'div',
      { class: 'main' },
      h(
        'section',
        { class: 'col events', 'aria-label': 'Events' },
        h(
          'div',
          { class: 'col-head' },
          h('h2', null, 'Events'),
          h(
            'span',
            { class: 'muted', role: 'status' },
            view.status === 'error'
              ? 'Could not read the session.'
              : `${rows.filter((r) => r.type === 'event').length} of ${events.length}${view.complete ? '' : ' newest, reading the rest…'}`,
          ),
        ),
        h(Filters, { events, filters, onChange: setFilters }),
        h(Timeline, {
          events,
          rows,
          selected,
          toolTimes,
          numbered: view.complete,
          rewound,
          onSelect: setSelected,
        }),
        painted && at ? h(Drafts, { store, session: at }) : null,
      ),
      h(
        'section',
        { class: 'col detail', 'aria-label': 'Details' },
        found
          ? h(SearchResults, {
              found,
              onOpen: openHit,
              onClear: () => setFound(undefined),
            })
          : null,
        h('h2', { class: 'sr-only' }, 'Event'),
        !painted
          ? null
          : session
            ? h(EventDetails, {
                events,
                index: selected ?? -1,
                complete: view.complete,
                rewound: selected !== undefined && rewound.has(events[selected]?.id ?? ''),
                state: session.state,
                toolTime: selected === undefined ? undefined : toolTimes.get(selected),
              })
            : h('p', { class: 'muted' }, appName ? 'No session selected.' : 'This store holds no sessions yet.'),
      ),
      h(
        'section',
        { class: 'col side', 'aria-label': 'State and more' },
        h('h2', { class: 'sr-only' }, 'State and more'),
        painted && session
          ? h(Scopes, { store, session, events, at: selected, allowWrites: options.allowWrites })
          : null,
        painted && at ? h(Fold, { title: 'Artifacts' }, h(Artifacts, { store, at })) : null,
        painted && at ? h(Fold, { title: 'Memory' }, h(Memory, { store, at })) : null,
        painted ? h(Fold, { title: 'Sync' }, h(Sync, { sync: options.sync })) : null,
      ),
    ),
  );
}

/** The mounted views: `show` moves them to another session (rendered again, their state kept). */
export interface InspectorViews {
  show(session: SessionKey): void;
  /** Removes the views and stops their queries. */
  unmount(): void;
}

/** Renders the inspector into `panel`, once what it shows first is read (first-view.ts). */
export async function renderInspector(
  panel: HTMLElement,
  store: SessionStore,
  options: ResolvedInspectorOptions,
): Promise<InspectorViews> {
  const first = await firstView(store, options.initialSession);
  render(h(Inspector, { store, options, first }), panel);
  return {
    show: (session) => render(h(Inspector, { store, options, shown: { ...session } }), panel),
    unmount: () => render(null, panel),
  };
}
/** The views' stylesheet, adopted by the shadow root beside the host's. */
renderInspector.css = INSPECTOR_CSS;
