/**
 * What `searchEvents` finds, in the languages our users write: English,
 * accented Latin, Chinese, Japanese, Korean and mixed text, including the
 * cases where ADK's in-memory memory search (`[A-Za-z]+` words only) finds
 * nothing. Each case is checked against ADK's own service too, where it fails.
 */
import { type Session as AdkSession, InMemoryMemoryService } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDbSessionService, Session } from '../../src/index.js';
import { freshStore, say } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
let store: IndexedDbSessionService;
let session: Session;
const adk = new InMemoryMemoryService();

const corpus: [string, string][] = [
  ['visa', 'Where do I apply for a visa to Japan?'],
  ['visa-reply', 'You can apply for the visa at the embassy in Berlin.'],
  ['cafe', 'Meet me at the Café de Flore on Saturday.'],
  ['creme', 'The crème brûlée was excellent.'],
  ['zurich', 'Our office moved to ZÜRICH last spring.'],
  ['zh-hotel', '我想预订北京的酒店，三个晚上。'],
  ['zh-visa', '签证申请需要哪些材料？'],
  ['ja-hotel', '東京でホテルを予約したいです。'],
  ['ja-weather', '明日の天気はどうですか'],
  ['ja-width', 'ﾃｽﾄの結果を送ります'],
  ['ja-cities', '東京と京都に行きます'],
  ['ko-seoul', '서울에서 맛있는 식당을 추천해 주세요'],
  ['mixed', 'Deploy the API to 東京 region before Friday'],
  ['th', 'พรุ่งนี้ฉันจะไปเชียงใหม่กับครอบครัว'],
  ['unrelated', 'Remind me to water the tomato plants.'],
];

beforeAll(async () => {
  store = freshStore();
  session = await store.createSession({ ...ids, sessionId: 'trip' });
  await say(store, session, corpus);
  await adk.addSessionToMemory(session as unknown as AdkSession);
});
afterAll(() => store.close());

const find = async (query: string, more: object = {}) =>
  (await store.searchEvents({ ...ids, query, ...more })).hits.map((h) => h.eventId);
const adkFinds = async (query: string) => (await adk.searchMemory({ ...ids, query })).memories.length;

describe('searchEvents relevance', () => {
  it('finds English words, any case, every word required by default', async () => {
    expect((await find('VISA')).sort()).toEqual(['visa', 'visa-reply']);
    expect(await find('visa embassy')).toEqual(['visa-reply']);
    expect(await find('visa tomato')).toEqual([]);
  });

  it('ranks the event where the words weigh most first', async () => {
    expect((await find('apply visa japan', { match: 'any' }))[0]).toBe('visa');
  });

  it('folds accents both ways: "cafe" finds "Café", "creme brulee" finds "crème brûlée"', async () => {
    expect(await find('cafe')).toEqual(['cafe']);
    expect(await find('café')).toEqual(['cafe']);
    expect(await find('creme brulee')).toEqual(['creme']);
    expect(await find('zurich')).toEqual(['zurich']);
    expect(await adkFinds('creme')).toBe(0);
  });

  it('finds Chinese words inside a sentence written without spaces', async () => {
    expect(await find('北京')).toEqual(['zh-hotel']);
    expect(await find('酒店')).toEqual(['zh-hotel']);
    expect(await find('签证')).toEqual(['zh-visa']);
    expect(await find('北京的酒店')).toEqual(['zh-hotel']);
    expect(await adkFinds('北京')).toBe(0);
  });

  it('does not take two words that appear apart for the phrase', async () => {
    // 预订 and 酒店 are both in zh-hotel, but not as 预订酒店.
    expect(await find('预订酒店')).toEqual([]);
    expect(await find('预订 酒店')).toEqual(['zh-hotel']);
    // Every bigram of 東京都 (東京, 京都) is in ja-cities, but the word is not.
    expect(await find('東京都')).toEqual([]);
    expect(await find('京都')).toEqual(['ja-cities']);
  });

  it('finds Japanese in kanji, kana and half-width katakana', async () => {
    expect(await find('ホテル')).toEqual(['ja-hotel']);
    expect(await find('予約')).toEqual(['ja-hotel']);
    expect(await find('天気')).toEqual(['ja-weather']);
    expect(await find('テスト')).toEqual(['ja-width']);
    expect(await adkFinds('ホテル')).toBe(0);
  });

  it('finds a single CJK character wherever it stands', async () => {
    expect((await find('京')).sort()).toEqual(['ja-cities', 'ja-hotel', 'mixed', 'zh-hotel']);
    expect(await find('約')).toEqual(['ja-hotel']);
  });

  it('finds Korean words with their particles attached', async () => {
    expect(await find('서울')).toEqual(['ko-seoul']);
    expect(await find('식당')).toEqual(['ko-seoul']);
    expect(await adkFinds('서울')).toBe(0);
  });

  it('finds Thai words, written without spaces, through Intl.Segmenter', async () => {
    expect(await find('ครอบครัว')).toEqual(['th']);
    expect(await find('เชียงใหม่')).toEqual(['th']);
  });

  it('finds mixed Latin and CJK queries in mixed text', async () => {
    expect(await find('deploy 東京')).toEqual(['mixed']);
    expect(await find('東京').then((h) => h.sort())).toEqual(['ja-cities', 'ja-hotel', 'mixed']);
  });

  it('finds nothing for punctuation only, and, asked for whole words, never an event without the word', async () => {
    expect(await find('?!')).toEqual([]);
    expect(await find('visas', { prefix: false, fuzzy: false, forms: false })).toEqual([]);
  });
});

describe('searchEvents hits', () => {
  it('carry the session, event, author, time and a snippet with the matches marked', async () => {
    const { hits } = await store.searchEvents({ ...ids, query: 'cafe flore' });
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit).toMatchObject({ sessionId: 'trip', eventId: 'cafe', author: 'user' });
    expect(typeof hit?.timestamp).toBe('number');
    expect(hit?.score).toBeGreaterThan(0);
    const marked = hit?.snippet.ranges.map(([a, b]) => hit.snippet.text.slice(a, b));
    expect(marked).toEqual(['Café', 'Flore']);
  });

  it('mark CJK matches in the original characters, half-width ones included', async () => {
    const [hit] = (await store.searchEvents({ ...ids, query: 'テスト' })).hits;
    expect(hit?.snippet.ranges.map(([a, b]) => hit.snippet.text.slice(a, b))).toEqual(['ﾃｽﾄ']);
  });

  it('page with limit and offset through the ranked hits', async () => {
    const all = await find('the', { match: 'any', limit: 100 });
    expect(all.length).toBeGreaterThan(3);
    const first = await find('the', { match: 'any', limit: 2 });
    const second = await find('the', { match: 'any', limit: 2, offset: 2 });
    expect([...first, ...second]).toEqual(all.slice(0, 4));
  });

  it('keep to one session when asked', async () => {
    const other = await store.createSession({ ...ids, sessionId: 'other' });
    await say(store, other, [['other-visa', 'My visa expires in May']]);
    expect((await find('visa')).sort()).toEqual(['other-visa', 'visa', 'visa-reply']);
    expect(await find('visa', { sessionId: 'other' })).toEqual(['other-visa']);
    expect(await find('visa', { sessionId: 'nowhere' })).toEqual([]);
  });
});
