/**
 * Folding over whole words, not one code point at a time: what NFKC composes
 * across code points (half-width katakana and their voicing marks, Korean
 * stored decomposed, decomposed Latin), Greek final sigma, and the letters
 * their readers search for as others (ß as ss, đ as d); with the snippet's
 * marks still on the original characters. And an index saved by the release
 * that folded one code point at a time is rebuilt, not trusted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fold, foldText } from '../../src/core/text/fold.js';
import type { IndexedDbSessionService } from '../../src/index.js';
import { freshStore, say } from '../search/helpers.js';

const ids = { appName: 'chat', userId: 'ada' };
let store: IndexedDbSessionService;

const corpus: [string, string][] = [
  ['ja-half', 'ﾃﾞｰﾀﾍﾞｰｽの移行は金曜日です'],
  ['ja-full', 'エージェントの設定を変えました'],
  ['el', 'Ταξίδι στην Ελλάδας πρωτεύουσα'],
  ['el-caps', 'ΟΔΗΓΟΣ ΤΑΞΙΔΙΟΥ'],
  ['ko-nfd', '호텔 예약을 확인해 주세요'.normalize('NFD')],
  ['ko-nfc', '서울역 근처 식당'],
  ['de', 'Die Straße ist gesperrt, Grüße aus Köln'],
  ['vi', 'Chuyến bay tới Đà Nẵng lúc 9 giờ'],
  ['fr-nfd', 'Un café crème à emporter'.normalize('NFD')],
];

beforeAll(async () => {
  store = freshStore();
  const session = await store.createSession({ ...ids, sessionId: 'world' });
  await say(store, session, corpus);
});
afterAll(() => store.close());

const find = async (query: string) =>
  (await store.searchEvents({ ...ids, query, prefix: false, fuzzy: false })).hits.map((h) => h.eventId).sort();
const marked = async (query: string) => {
  const [hit] = (await store.searchEvents({ ...ids, query, prefix: false, fuzzy: false })).hits;
  return hit?.snippet.ranges.map(([a, b]) => hit.snippet.text.slice(a, b));
};

describe('searchEvents folds whole words', () => {
  it('finds half-width katakana with voicing marks from full-width queries, and the other way round', async () => {
    expect(await find('データベース')).toEqual(['ja-half']);
    expect(await find('ﾃﾞｰﾀﾍﾞｰｽ')).toEqual(['ja-half']);
    expect(await find('ｴｰｼﾞｪﾝﾄ')).toEqual(['ja-full']);
    expect(await find('エージェント')).toEqual(['ja-full']);
  });

  it('marks the half-width original, voicing marks included', async () => {
    expect(await marked('データベース')).toEqual(['ﾃﾞｰﾀﾍﾞｰｽ']);
  });

  it('finds Greek words whatever the case, final sigma included', async () => {
    expect(await find('ΕΛΛΑΔΑΣ')).toEqual(['el']);
    expect(await find('ελλάδας')).toEqual(['el']);
    expect(await find('οδηγος')).toEqual(['el-caps']);
    expect(await find('οδηγός')).toEqual(['el-caps']);
  });

  it('finds Korean stored decomposed (NFD) from composed queries, and the other way round', async () => {
    expect(await find('호텔 예약')).toEqual(['ko-nfd']);
    expect(await find('예약')).toEqual(['ko-nfd']);
    expect(await find('서울역'.normalize('NFD'))).toEqual(['ko-nfc']);
    expect(await marked('호텔')).toEqual(['호텔'.normalize('NFD')]);
  });

  it('finds German ß as ss, both ways, and marks the word with ß', async () => {
    expect(await find('strasse')).toEqual(['de']);
    expect(await find('STRASSE')).toEqual(['de']);
    expect(await find('Straße')).toEqual(['de']);
    expect(await find('grusse')).toEqual(['de']);
    expect(await marked('strasse')).toEqual(['Straße']);
  });

  it('finds Vietnamese đ as d, with its tones removed', async () => {
    expect(await find('da nang')).toEqual(['vi']);
    expect(await find('Đà Nẵng')).toEqual(['vi']);
    expect(await marked('da nang')).toEqual(['Đà', 'Nẵng']);
  });

  it('finds Latin written decomposed, and marks it whole', async () => {
    expect(await find('cafe creme')).toEqual(['fr-nfd']);
    expect(await marked('creme')).toEqual(['crème'.normalize('NFD')]);
  });
});

describe('fold', () => {
  it('maps every folded unit back to the characters it came from', () => {
    const text = 'Grüße ﾃﾞｰﾀ';
    const folded = fold(text);
    expect(folded.text).toBe('grusse データ');
    expect(folded.origin).toHaveLength(folded.text.length + 1);
    // Both s of "ss" come from ß; デ comes from ﾃﾞ (two code points).
    expect(folded.origin.slice(0, 6)).toEqual([0, 1, 2, 3, 3, 4]);
    expect(text.slice(folded.origin[7] as number, folded.origin[8] as number)).toBe('ﾃﾞ');
    expect(foldText(text)).toBe(folded.text);
  });

  it('keeps a lone mark out of the words around it', () => {
    expect(foldText('\u0301abc')).toBe('abc');
    expect(foldText('ｱﾞ')).toBe('ア\u3099');
  });
});
