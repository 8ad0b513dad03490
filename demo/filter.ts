/**
 * The session list's filter: one text box. Plain text matches a session id or
 * any state value (case-insensitive substring); `key=value` matches one state
 * key (full key, prefix included: `user:name=Ada`) whose value, written as
 * text or as JSON, equals `value`; `key=` matches sessions that have the key.
 */
import type { Session } from '../src/index.js';

export type SessionFilter =
  | { kind: 'none' }
  | { kind: 'text'; needle: string }
  | { kind: 'state'; key: string; value: string | undefined };

export function parseFilter(input: string): SessionFilter {
  const text = input.trim();
  if (text === '') return { kind: 'none' };
  const eq = text.indexOf('=');
  if (eq > 0) {
    const value = text.slice(eq + 1).trim();
    return { kind: 'state', key: text.slice(0, eq).trim(), value: value === '' ? undefined : value };
  }
  return { kind: 'text', needle: text.toLowerCase() };
}

/** A value as the filter compares it: strings as themselves, anything else as JSON. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function matchesFilter(session: Session, filter: SessionFilter): boolean {
  switch (filter.kind) {
    case 'none':
      return true;
    case 'text':
      return (
        session.id.toLowerCase().includes(filter.needle) ||
        Object.values(session.state).some((v) => asText(v).toLowerCase().includes(filter.needle))
      );
    case 'state': {
      if (!Object.hasOwn(session.state, filter.key)) return false;
      if (filter.value === undefined) return true;
      const value = session.state[filter.key];
      return asText(value) === filter.value || JSON.stringify(value) === filter.value;
    }
  }
}
