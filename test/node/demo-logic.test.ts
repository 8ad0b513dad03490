/** The inspector's pure parts: hash routes, the session filter, state by scope, formatting. */
import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from '../../demo/filter.js';
import { formatBytes, preview, relativeTime } from '../../demo/format.js';
import { formatHash, parseHash, type Selection } from '../../demo/route.js';
import { deltaEntries, stateByScope } from '../../demo/state-scopes.js';
import type { Event, Session } from '../../src/index.js';

describe('routes', () => {
  const cases: [Selection, string][] = [
    [{}, '#'],
    [{ app: 'chat' }, '#app=chat'],
    [{ app: 'chat', user: 'ada' }, '#app=chat&user=ada'],
    [{ app: 'chat', user: 'ada', session: { userId: 'ada', id: 's1' } }, '#app=chat&user=ada&session=s1'],
    [{ app: 'chat', session: { userId: 'bob', id: 's2' } }, '#app=chat&session=s2&of=bob'],
    [
      { app: 'a&b=c', user: '#x', session: { userId: '#x', id: '?/ %' } },
      '#app=a%26b%3Dc&user=%23x&session=%3F%2F+%25',
    ],
  ];
  it.each(cases)('%j <-> %s', (selection, hash) => {
    expect(formatHash(selection)).toBe(hash);
    expect(parseHash(hash)).toEqual(selection);
  });

  it('ignores a session without an app or an owner', () => {
    expect(parseHash('#session=s1')).toEqual({});
    expect(parseHash('#app=chat&session=s1')).toEqual({ app: 'chat' });
  });
});

const session = (id: string, state: Record<string, unknown>): Session => ({
  id,
  appName: 'app',
  userId: 'u',
  state,
  events: [],
  lastUpdateTime: 0,
});

describe('session filter', () => {
  const a = session('alpha-1', { topic: 'Billing', n: 2, 'user:name': 'Ada', flag: true, obj: { deep: 'x' } });
  const b = session('beta-2', { topic: 'travel', n: '2', 'user:name': null });
  const ids = (text: string) => [a, b].filter((s) => matchesFilter(s, parseFilter(text))).map((s) => s.id);

  it('with no text matches everything', () => {
    expect(parseFilter('  ')).toEqual({ kind: 'none' });
    expect(ids('')).toEqual(['alpha-1', 'beta-2']);
  });
  it('matches ids and values by case-insensitive substring', () => {
    expect(ids('ALPHA')).toEqual(['alpha-1']);
    expect(ids('bill')).toEqual(['alpha-1']);
    expect(ids('-2')).toEqual(['beta-2']);
    expect(ids('deep')).toEqual(['alpha-1']);
  });
  it('matches key=value on one key, as text or JSON, prefixes included', () => {
    expect(ids('topic=travel')).toEqual(['beta-2']);
    expect(ids('n=2')).toEqual(['alpha-1', 'beta-2']);
    expect(ids('n="2"')).toEqual(['beta-2']);
    expect(ids('user:name=Ada')).toEqual(['alpha-1']);
    expect(ids('user:name=null')).toEqual(['beta-2']);
    expect(ids('flag=true')).toEqual(['alpha-1']);
    expect(ids('topic=bill')).toEqual([]);
  });
  it('key= matches sessions that have the key', () => {
    expect(ids('flag=')).toEqual(['alpha-1']);
  });
  it('treats __proto__ as an ordinary key', () => {
    const c = session('c', JSON.parse('{"__proto__": "x"}'));
    expect(matchesFilter(c, parseFilter('__proto__=x'))).toBe(true);
    expect(matchesFilter(a, parseFilter('__proto__='))).toBe(false);
    expect(matchesFilter(a, parseFilter('constructor='))).toBe(false);
  });
});

const event = (id: string, stateDelta: Record<string, unknown>): Event => ({
  id,
  invocationId: 'i',
  author: 'agent',
  timestamp: 1,
  actions: { stateDelta },
});

describe('state by scope', () => {
  it('groups merged state by scope with the last event that set each key', () => {
    const s = session('s', { 'app:count': 2, 'user:name': 'Ada', step: 2, topic: 'x', 'temp:t': 1 });
    s.events = [event('e1', { step: 1, 'app:count': 1, topic: 'x' }), event('e2', { step: 2, 'app:count': 2 })];
    const grouped = stateByScope(s);
    const view = (scope: 'app' | 'user' | 'session') =>
      grouped[scope].map((e) => [e.key, e.name, e.value, e.setBy?.id ?? null]);
    expect(view('app')).toEqual([['app:count', 'count', 2, 'e2']]);
    expect(view('user')).toEqual([['user:name', 'name', 'Ada', null]]);
    expect(view('session')).toEqual([
      ['step', 'step', 2, 'e2'],
      ['topic', 'topic', 'x', 'e1'],
    ]);
  });

  it('names the scope each key of a delta goes to', () => {
    expect(deltaEntries(event('e', { 'app:a': 1, 'user:u': 2, s: 3, 'temp:t': 4 }))).toEqual([
      { key: 'app:a', name: 'a', scope: 'app', value: 1 },
      { key: 'user:u', name: 'u', scope: 'user', value: 2 },
      { key: 's', name: 's', scope: 'session', value: 3 },
      { key: 'temp:t', name: 't', scope: 'temp', value: 4 },
    ]);
  });
});

describe('format', () => {
  it('relative times', () => {
    const now = 1_000_000_000_000;
    expect(relativeTime(now - 1000, now)).toBe('just now');
    expect(relativeTime(now - 42_000, now)).toBe('42 s ago');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
  });
  it('bytes and previews', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(73_700)).toBe('73.7 KB');
    expect(formatBytes(10_700_000_000)).toBe('10.7 GB');
    expect(preview({ a: 'x'.repeat(100) }, 10)).toBe('{"a":"xxx…');
    expect(preview('short')).toBe('"short"');
  });
});
