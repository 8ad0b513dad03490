/**
 * What the views show, computed from a session's events alone: each event's
 * kinds, the rows of the timeline (events grouped by invocation), how long each
 * invocation and each tool call took, and the state after any event.
 */
import { type Event, isErased, type Part } from '../../index.js';

/** What an event is, for the kind filter; one event can be several (a call and a confirmation). */
export type EventKind = 'message' | 'call' | 'result' | 'confirmation' | 'error' | 'partial' | 'rewind' | 'erased';
export const FILTER_KINDS: readonly EventKind[] = [
  'call',
  'result',
  'confirmation',
  'error',
  'partial',
  'rewind',
  'erased',
];

/** ADK's tool confirmation request: a function call by this name. */
const CONFIRMATION = 'adk_request_confirmation';

const partsOf = (event: Event): readonly Part[] => event.content?.parts ?? [];

export function kindsOf(event: Event): Set<EventKind> {
  const kinds = new Set<EventKind>();
  for (const part of partsOf(event)) {
    if (part.functionCall) kinds.add(part.functionCall.name === CONFIRMATION ? 'confirmation' : 'call');
    if (part.functionResponse) kinds.add(part.functionResponse.name === CONFIRMATION ? 'confirmation' : 'result');
    if (typeof part.text === 'string' && part.text !== '') kinds.add('message');
  }
  if (event.errorCode !== undefined || event.errorMessage !== undefined) kinds.add('error');
  if (event.partial) kinds.add('partial');
  if (event.actions?.rewindBeforeInvocationId) kinds.add('rewind');
  if (isErased(event)) kinds.add('erased');
  return kinds;
}

/** The tools an event calls or answers. */
export function toolsOf(event: Event): string[] {
  const names: string[] = [];
  for (const part of partsOf(event)) {
    const name = part.functionCall ? part.functionCall.name : part.functionResponse?.name;
    if (part.functionCall || part.functionResponse) names.push(name ?? '(unnamed)');
  }
  return names;
}

/** A line of text that says what the event holds. */
export function summaryOf(event: Event): string {
  const bits: string[] = [];
  const undone = event.actions?.rewindBeforeInvocationId;
  if (undone) bits.push(`rewind to before invocation ${undone}`);
  for (const part of partsOf(event)) {
    if (typeof part.text === 'string') bits.push(part.text);
    else if (part.functionCall)
      bits.push(`call ${part.functionCall.name ?? ''}(${JSON.stringify(part.functionCall.args ?? {})})`);
    else if (part.functionResponse) bits.push(`result ${part.functionResponse.name ?? ''}`);
    else if (part.inlineData || part.fileData) bits.push('[file]');
  }
  if (event.errorMessage !== undefined || event.errorCode !== undefined)
    bits.push(`error ${event.errorCode ?? ''} ${event.errorMessage ?? ''}`.trim());
  const delta = event.actions?.stateDelta;
  if (delta && Object.keys(delta).length > 0) bits.push(`state: ${Object.keys(delta).join(', ')}`);
  return bits.join(' · ').replace(/\s+/g, ' ').slice(0, 300);
}

export interface Filters {
  author: string;
  tool: string;
  kinds: ReadonlySet<EventKind>;
}

export const noFilters = (): Filters => ({ author: '', tool: '', kinds: new Set() });

export function matchesFilters(event: Event, filters: Filters): boolean {
  if (filters.author !== '' && event.author !== filters.author) return false;
  if (filters.tool !== '' && !toolsOf(event).includes(filters.tool)) return false;
  if (filters.kinds.size > 0) {
    const kinds = kindsOf(event);
    if (![...filters.kinds].some((kind) => kinds.has(kind))) return false;
  }
  return true;
}

/** A timeline row: an invocation's heading, or an event (by its index in the session). */
export type Row =
  | { type: 'invocation'; invocationId: string; count: number; durationMs: number }
  | { type: 'event'; index: number };

/**
 * Rows for the events that pass `filters`, a heading before each run of one
 * invocation's events. An invocation's duration spans all of its events, filtered or not.
 */
export function rowsOf(events: readonly Event[], filters: Filters): Row[] {
  const spans = new Map<string, { first: number; last: number; count: number }>();
  for (const event of events) {
    const id = event.invocationId ?? '';
    const span = spans.get(id);
    if (span) {
      span.first = Math.min(span.first, event.timestamp);
      span.last = Math.max(span.last, event.timestamp);
      span.count += 1;
    } else spans.set(id, { first: event.timestamp, last: event.timestamp, count: 1 });
  }
  const rows: Row[] = [];
  let current: string | undefined;
  events.forEach((event, index) => {
    if (!matchesFilters(event, filters)) return;
    const id = event.invocationId ?? '';
    if (id !== current) {
      current = id;
      const span = spans.get(id) ?? { first: 0, last: 0, count: 0 };
      rows.push({ type: 'invocation', invocationId: id, count: span.count, durationMs: span.last - span.first });
    }
    rows.push({ type: 'event', index });
  });
  return rows;
}

/** How long each tool call took: from the event calling it to the one answering it (by call id), keyed by the answering event's index. */
export function toolDurations(events: readonly Event[]): Map<number, { tool: string; ms: number }> {
  const calls = new Map<string, number>();
  const durations = new Map<number, { tool: string; ms: number }>();
  events.forEach((event, index) => {
    for (const part of partsOf(event)) {
      const call = part.functionCall;
      if (call?.id) calls.set(call.id, event.timestamp);
      const response = part.functionResponse;
      const started = response?.id === undefined ? undefined : calls.get(response.id);
      if (response && started !== undefined)
        durations.set(index, { tool: response.name ?? '', ms: event.timestamp - started });
    }
  });
  return durations;
}

export function distinct(values: Iterable<string | undefined>): string[] {
  return [...new Set([...values].filter((v): v is string => v !== undefined && v !== ''))].sort();
}
