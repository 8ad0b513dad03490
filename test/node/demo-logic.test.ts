/** The demo's pure parts: hash routes and formatting. */
import { describe, expect, it } from 'vitest';
import { formatBytes, relativeTime } from '../../demo/format.js';
import { formatHash, parseHash, type Selection } from '../../demo/route.js';

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

describe('format', () => {
  it('relative times', () => {
    const now = 1_000_000_000_000;
    expect(relativeTime(now - 1000, now)).toBe('just now');
    expect(relativeTime(now - 42_000, now)).toBe('42 s ago');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000, now)).toBe('2 d ago');
  });
  it('bytes', () => {
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(73_700)).toBe('73.7 KB');
    expect(formatBytes(10_700_000_000)).toBe('10.7 GB');
  });
});
