/**
 * `searchEvents` as a search-as-you-type box: by default the word being typed
 * matches the words it begins, longer words match within a typo or two, and
 * English words match their regular forms; exact matches rank first, the
 * marks cover the words found, and each can be turned off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDbSessionService } from '../../src/index.js';
import { freshStore, say } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
let store: IndexedDbSessionService;

const corpus: [string, string][] = [
  ['passport', 'Renew my passport before the trip'],
  ['pass', 'Show the boarding pass at the gate'],
  ['embassy', 'The embassy opens at nine'],
  ['hotel', 'Book the hotel near the station'],
  ['hotels', 'Compare hotels in Lisbon'],
  ['visa', 'Apply for the visa online'],
  ['el', 'Ταξίδι στην Ελλάδα'],
  ['de', 'Die Straße ist gesperrt'],
  ['ja', '東京でホテルを予約したい'],
  ['run', 'I run every morning'],
  ['running', 'Running shoes for the marathon'],
  ['reserved', 'We reserved two nights'],
  ['cities', 'Cities to visit in spring'],
];

beforeAll(async () => {
  store = freshStore();
  const session = await store.createSession({ ...ids, sessionId: 's' });
  await say(store, session, corpus);
});
afterAll(() => store.close());

const find = async (query: string, more: object = {}) =>
  (await store.searchEvents({ ...ids, query, ...more })).hits.map((h) => h.eventId);

describe('the word being typed', () => {
  it('finds the words it begins: "pass" finds "passport", whole "pass" first', async () => {
    expect(await find('pass')).toEqual(['pass', 'passport']);
    expect(await find('passpo')).toEqual(['passport']);
    expect(await find('renew passpo')).toEqual(['passport']);
  });

  it('marks the whole word found', async () => {
    const [hit] = (await store.searchEvents({ ...ids, query: 'passpo' })).hits;
    expect(hit?.snippet.ranges.map(([a, b]) => hit.snippet.text.slice(a, b))).toEqual(['passport']);
  });

  it('is only the last word, unless a space or punctuation ends the query', async () => {
    expect(await find('pass ')).toEqual(['pass']);
    expect(await find('passpo?')).toEqual([]);
    expect(await find('passpo renew')).toEqual([]);
  });

  it('needs three characters: fewer would match most words', async () => {
    expect(await find('pa')).toEqual([]);
    expect(await find('emb')).toEqual(['embassy']);
  });

  it('works on folded words in other scripts', async () => {
    expect(await find('ελλ')).toEqual(['el']);
    expect(await find('strass')).toEqual(['de']);
  });

  it('can be turned off', async () => {
    expect(await find('pass', { prefix: false })).toEqual(['pass']);
    expect(await find('passpo', { prefix: false })).toEqual([]);
  });
});

describe('typos', () => {
  it('find words of five letters or more one edit away', async () => {
    expect(await find('pasport', { prefix: false })).toEqual(['passport']);
    expect(await find('embasy', { prefix: false })).toEqual(['embassy']);
    expect(await find('hotle', { prefix: false })).toEqual([]);
    expect(await find('hotl', { prefix: false })).toEqual([]);
  });

  it('rank exact matches first', async () => {
    expect(await find('hotels', { prefix: false })).toEqual(['hotels', 'hotel']);
  });

  it('leave short words exact, and can be turned off', async () => {
    expect(await find('vsa', { prefix: false })).toEqual([]);
    expect(await find('pasport', { fuzzy: false, prefix: false })).toEqual([]);
  });

  it('leave Chinese, Japanese and Korean as they were: any part of a run is found anyway', async () => {
    expect(await find('ホテル')).toEqual(['ja']);
    expect(await find('ホテ')).toEqual(['ja']);
  });
});

describe('English word forms', () => {
  const exact = { prefix: false, fuzzy: false };

  it('find the regular forms of a word, the word as written first', async () => {
    expect(await find('running', exact)).toEqual(['running', 'run']);
    expect(await find('run', exact)).toEqual(['run', 'running']);
    expect(await find('reserve', exact)).toEqual(['reserved']);
    expect(await find('reserving', exact)).toEqual(['reserved']);
    expect(await find('city', exact)).toEqual(['cities']);
    expect(await find('visas', exact)).toEqual(['visa']);
  });

  it('mark the form found', async () => {
    const [hit] = (await store.searchEvents({ ...ids, query: 'reserve', ...exact })).hits;
    expect(hit?.snippet.ranges.map(([a, b]) => hit.snippet.text.slice(a, b))).toEqual(['reserved']);
  });

  it('can be turned off', async () => {
    expect(await find('running', { ...exact, forms: false })).toEqual(['running']);
  });
});
