/**
 * A session's events as a timeline: who, when, what was said, which tools
 * were called with what and what they answered, and where each state change
 * went. Consecutive events of one invocation are grouped under its id.
 */
import type { Event, Part } from '../src/index.js';
import { type Child, h } from './dom.js';
import { clockTime, dateTime, shortId } from './format.js';
import { jsonBlock, jsonInline } from './json-view.js';
import { deltaEntries } from './state-scopes.js';

function authorClass(event: Event): string {
  if (event.author === 'user') return 'author-user';
  const parts = event.content?.parts ?? [];
  if (parts.some((p) => p.functionCall || p.functionResponse)) return 'author-tool';
  return 'author-agent';
}

function partView(part: Part): HTMLElement {
  if (part.functionCall) {
    const { name, args, id } = part.functionCall;
    return h(
      'div',
      { class: 'part part-call', title: id ? `call id ${id}` : undefined },
      h('span', { class: 'part-kind' }, 'call'),
      h('span', { class: 'mono fn-name' }, name ?? '(unnamed)'),
      h('span', { class: 'mono fn-args' }, '(', jsonInline(args ?? {}, 200), ')'),
    );
  }
  if (part.functionResponse) {
    const { name, response, id } = part.functionResponse;
    return h(
      'div',
      { class: 'part part-response', title: id ? `call id ${id}` : undefined },
      h('span', { class: 'part-kind' }, 'result'),
      h('span', { class: 'mono fn-name' }, name ?? '(unnamed)'),
      h('span', { class: 'fn-arrow', 'aria-hidden': 'true' }, '→'),
      jsonInline(response ?? {}, 200),
    );
  }
  if (typeof part.text === 'string') {
    return h('p', { class: part.thought ? 'part part-text part-thought' : 'part part-text' }, part.text);
  }
  if (part.inlineData) {
    const size = part.inlineData.data ? Math.floor((part.inlineData.data.length * 3) / 4) : 0;
    return h(
      'div',
      { class: 'part part-other' },
      `inline data · ${part.inlineData.mimeType ?? 'unknown type'} · ${size} bytes`,
    );
  }
  if (part.fileData) {
    return h(
      'div',
      { class: 'part part-other' },
      `file · ${part.fileData.mimeType ?? ''} ${part.fileData.fileUri ?? ''}`,
    );
  }
  return h('div', { class: 'part part-other' }, jsonInline(part, 200));
}

/** State-delta chips: scope, key, new value. */
function deltaChips(event: Event): HTMLElement | null {
  const entries = deltaEntries(event);
  if (entries.length === 0) return null;
  return h(
    'ul',
    { class: 'chips', 'aria-label': 'State changes' },
    entries.map((e) =>
      h(
        'li',
        { class: `chip scope-${e.scope}`, title: `${e.key} → ${e.scope} state` },
        h('span', { class: 'chip-scope' }, e.scope),
        h('span', { class: 'mono chip-key' }, e.name),
        h('span', { class: 'chip-eq', 'aria-hidden': 'true' }, '='),
        jsonInline(e.value, 40),
      ),
    ),
  );
}

/** `extra` adds what the event refers to (its attachments), after its parts. */
export function eventView(event: Event, extra?: (event: Event) => Child): HTMLLIElement {
  const parts = event.content?.parts ?? [];
  const flags: string[] = [];
  if (event.partial) flags.push('partial');
  if (event.turnComplete) flags.push('turn complete');
  if (event.interrupted) flags.push('interrupted');
  if (event.branch) flags.push(`branch ${event.branch}`);
  if (event.actions?.transferToAgent) flags.push(`→ ${event.actions.transferToAgent}`);
  if (event.actions?.escalate) flags.push('escalate');
  return h(
    'li',
    { class: `event ${authorClass(event)}`, tabindex: -1, 'data-event-id': event.id },
    h(
      'div',
      { class: 'event-head' },
      h('span', { class: 'author' }, event.author ?? '(no author)'),
      event.content?.role && event.content.role !== event.author
        ? h('span', { class: 'role', title: 'content.role' }, event.content.role)
        : null,
      flags.map((f) => h('span', { class: 'flag' }, f)),
      // Id and time stay together at the right; on a narrow column they move to a line of their own.
      h(
        'span',
        { class: 'event-stamp' },
        h('span', { class: 'mono event-id', title: `event id ${event.id}` }, shortId(event.id)),
        h('time', { class: 'mono event-time', title: dateTime(event.timestamp) }, clockTime(event.timestamp)),
      ),
    ),
    parts.length > 0 ? h('div', { class: 'event-body' }, parts.map(partView)) : null,
    extra?.(event),
    event.errorCode || event.errorMessage
      ? h('p', { class: 'event-error' }, `${event.errorCode ?? 'error'}: ${event.errorMessage ?? ''}`)
      : null,
    deltaChips(event),
    rawJson(event),
  );
}

/** The stored event as JSON, built only when opened. */
function rawJson(event: Event): HTMLElement {
  const summary = h('summary', null, 'JSON');
  const details = h('details', { class: 'raw' }, summary);
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) details.append(jsonBlock(event));
  });
  return details;
}

export function invocationSeparator(invocationId: string | undefined): HTMLLIElement {
  return h(
    'li',
    { class: 'turn-sep', 'aria-hidden': 'true' },
    h(
      'span',
      { class: 'mono', title: invocationId ? `invocation ${invocationId}` : undefined },
      invocationId ? `invocation ${shortId(invocationId, 10)}` : 'no invocation id',
    ),
  );
}

/** Appends `events` to `list`, `previous` being the event shown last; returns the new event items. */
export function renderEvents(
  list: HTMLElement,
  events: Event[],
  previous: Event | undefined,
  extra?: (event: Event) => Child,
): HTMLLIElement[] {
  let last = previous;
  const items: HTMLLIElement[] = [];
  for (const event of events) {
    if (!last || last.invocationId !== event.invocationId) list.append(invocationSeparator(event.invocationId));
    const item = eventView(event, extra);
    list.append(item);
    items.push(item);
    last = event;
  }
  return items;
}

/** Scrolls to the event `eventId` of `timeline` and highlights it; `false` when it is not among the rendered ones. */
export function revealEvent(timeline: HTMLElement, eventId: string): boolean {
  const item = [...timeline.querySelectorAll<HTMLElement>('.event')].find((li) => li.dataset.eventId === eventId);
  if (!item) return false;
  item.scrollIntoView({ block: 'center', behavior: 'smooth' });
  item.classList.remove('highlight');
  void item.offsetWidth;
  item.classList.add('highlight');
  item.focus({ preventScroll: true });
  return true;
}
