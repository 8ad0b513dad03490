/**
 * Folding: the form text is indexed and matched in. Text is folded one
 * cluster at a time (a character and the marks that combine with it), not one
 * code point: NFKC composes across code points (ﾃ + ﾞ is デ, Hangul jamo make
 * one syllable, e + U+0301 is é), and a mark folded alone becomes a lone mark
 * that splits a word. Every folded UTF-16 unit maps back to the cluster it
 * came from, so snippets mark what matched in what the user wrote.
 */

/** Letters and digits of scripts written without spaces between words, matched by character bigrams. */
export const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const LETTER = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
/** Diacritics are folded only on these scripts: on kana (が -> か) or Hangul they change the word. */
const FOLDS_MARKS = /[\p{Script=Latin}\p{Script=Greek}]/u;
/**
 * A character and what composes with it under NFKC: combining marks, the
 * half-width kana voicing marks (ﾞ ﾟ, which are not marks but compose), and
 * Hangul vowel and final jamo (Korean as macOS stores it, NFD).
 */
const CLUSTER = /[\s\S][\p{M}\uff9e\uff9f\u1160-\u11ff]*/gu;
const ASCII = /^[\0-\x7f]*$/;
/**
 * Letters their readers take for another letter or pair when they search
 * (German ß is ss, Vietnamese đ is d, Greek final ς is σ), which neither NFKC
 * nor removing diacritics folds: they are letters of their own in Unicode.
 */
const LETTER_FOLDS: Record<string, string> = { ß: 'ss', ς: 'σ', đ: 'd', ł: 'l', ø: 'o', æ: 'ae', œ: 'oe' };
const FOLDED_LETTERS = /[ßςđłøæœ]/gu;

const cache = new Map<string, string>();

/** NFKC, lower case, Latin and Greek diacritics removed, and the letters above: "Straße" -> "strasse", "ﾃﾞｰﾀ" -> "データ". */
export function foldCluster(cluster: string): string {
  let folded = cache.get(cluster);
  if (folded !== undefined) return folded;
  folded = cluster.normalize('NFKC').toLowerCase();
  const split = folded.normalize('NFD');
  // A mark with nothing to combine with (at the start of the text) is dropped, as a diacritic is.
  if (FOLDS_MARKS.test(split) || MARK.test(split[0] ?? '')) folded = split.replace(/\p{M}/gu, '').normalize('NFC');
  folded = folded.replace(FOLDED_LETTERS, (letter) => LETTER_FOLDS[letter] as string);
  if (cache.size < 65_536) cache.set(cluster, folded);
  return folded;
}

/** Folded text, and for each of its UTF-16 units the index in `text` of the cluster it came from. */
export interface Folded {
  text: string;
  /** One more entry than `text` has units: the last is `text.length` of the original. */
  origin: number[];
}

export function fold(text: string): Folded {
  if (ASCII.test(text))
    return { text: text.toLowerCase(), origin: Array.from({ length: text.length + 1 }, (_, i) => i) };
  let out = '';
  const origin: number[] = [];
  for (const match of text.matchAll(CLUSTER)) {
    const folded = foldCluster(match[0]);
    out += folded;
    for (let i = 0; i < folded.length; i++) origin.push(match.index);
  }
  origin.push(text.length);
  return { text: out, origin };
}

/** The folded text only, for indexing and queries (no map back). */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const match of text.matchAll(CLUSTER)) out += foldCluster(match[0]);
  return out;
}

/**
 * Where in the original text the folded range `[start, end)` ends: after the
 * whole cluster its last unit came from (one cluster may fold to several
 * units, "ß" to "ss", "㍿" to "株式会社").
 */
export function originalEnd(folded: Folded, start: number, end: number): number {
  if (end <= start) return folded.origin[start] as number;
  const last = folded.origin[end - 1] as number;
  let at = end;
  while (at < folded.text.length && folded.origin[at] === last) at++;
  return folded.origin[at] as number;
}

/** `'mark'`: a combining mark, which belongs to the run of the character before it. */
export type CharClass = 'cjk' | 'word' | 'other' | 'mark';

export function classOf(char: string): CharClass {
  if (CJK.test(char) && LETTER.test(char)) return 'cjk';
  if (LETTER.test(char)) return 'word';
  if (MARK.test(char)) return 'mark';
  return 'other';
}
