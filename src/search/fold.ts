/**
 * Folding: the form text is indexed and matched in. Folded one code point at a
 * time, so every folded character maps back to the original text (snippets
 * mark what matched in what the user wrote).
 */

/** Letters and digits of scripts written without spaces between words, matched by character bigrams. */
export const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;
const LETTER = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;
/** Diacritics are folded only on these scripts: on kana (が -> か) or Hangul they change the word. */
const FOLDS_MARKS = /[\p{Script=Latin}\p{Script=Greek}]/u;
/** Combining diacritics written apart from their letter ("e" + U+0301). */
const COMBINING_DIACRITIC = /[\u0300-\u036f]/u;

const cache = new Map<string, string>();

/** NFKC, lower case, and Latin/Greek diacritics removed: "Café" -> "cafe", "ＡＢＣ" -> "abc", "ﾃｽﾄ" -> "テスト". */
export function foldChar(char: string): string {
  let folded = cache.get(char);
  if (folded !== undefined) return folded;
  if (COMBINING_DIACRITIC.test(char)) folded = '';
  else {
    folded = char.normalize('NFKC').toLowerCase();
    const first = folded.normalize('NFD');
    if (FOLDS_MARKS.test(first)) folded = first.replace(/\p{M}/gu, '').normalize('NFC');
  }
  if (cache.size < 65_536) cache.set(char, folded);
  return folded;
}

/** Folded text, and for each of its UTF-16 units the index in `text` of the character it came from. */
export interface Folded {
  text: string;
  origin: number[];
}

export function fold(text: string): Folded {
  let out = '';
  const origin: number[] = [];
  let at = 0;
  for (const char of text) {
    const folded = foldChar(char);
    out += folded;
    for (let i = 0; i < folded.length; i++) origin.push(at);
    at += char.length;
  }
  origin.push(at);
  return { text: out, origin };
}

export type CharClass = 'cjk' | 'word' | 'other';

export function classOf(char: string): CharClass {
  if (CJK.test(char) && LETTER.test(char)) return 'cjk';
  if (LETTER.test(char) || MARK.test(char)) return 'word';
  return 'other';
}
