/**
 * What a search box needs beyond whole words: the word being typed matches
 * the words it begins ("pass" finds "passport"), a longer word matches words
 * a typo or two away ("pasport" finds "passport"), and an English word its
 * regular forms ("running" finds "run", ./forms.ts). The rules here decide
 * which query words get which; MiniSearch's `prefix` and `fuzzy` look them up
 * in the index, and `wordMatches` is the same rule checked on an event's words
 * (Levenshtein distance over UTF-16 units, as MiniSearch's `fuzzy` counts).
 */
import { formsOf } from './forms.js';
import { FUNCTION_WORD_WEIGHT, weightOf } from './weights.js';

/** How a query's words may match beyond equality; what `searchEvents` takes as `prefix` and `fuzzy`. */
export interface TypingOptions {
  prefix?: boolean;
  fuzzy?: boolean;
  /** English word forms (./forms.ts): "running" also finds "run". */
  forms?: boolean;
}

/** The word being typed is matched by prefix once it has this many characters: fewer would match most words. */
export const MIN_PREFIX = 3;
/** Words this long get one edit of typo tolerance, and `FUZZY_TWO` long two; shorter words are too easily another word. */
export const FUZZY_ONE = 5;
export const FUZZY_TWO = 9;
/** Typo tolerance goes to at most this many words of a query: each costs a walk of the whole vocabulary per shard. */
export const MAX_FUZZY_WORDS = 4;

interface Word {
  kind: 'word' | 'cjk';
  text: string;
  prefix?: boolean;
  fuzzy?: number;
  forms?: string[];
}

/**
 * Marks the words of `terms` (in query order) that match loosely. `typing`:
 * the query's last word is still being typed (no space or punctuation after it).
 */
export function loosen<T extends Word>(terms: T[], options: TypingOptions, typing: T | undefined): T[] {
  let fuzzy = 0;
  return terms.map((term) => {
    if (term.kind !== 'word') return term;
    const loose: T = { ...term };
    if (options.prefix && term === typing && term.text.length >= MIN_PREFIX) loose.prefix = true;
    // Function words are short, spelled right and not inflected: loosening them would only find other function words.
    const content = weightOf('word', term.text) > FUNCTION_WORD_WEIGHT;
    if (options.fuzzy && fuzzy < MAX_FUZZY_WORDS && content) {
      const edits = term.text.length >= FUZZY_TWO ? 2 : term.text.length >= FUZZY_ONE ? 1 : 0;
      if (edits > 0) {
        loose.fuzzy = edits;
        fuzzy++;
      }
    }
    if (options.forms && content) {
      // A form the prefix or the typo allowance reaches already is left to them: matched twice, it would count twice.
      const forms = formsOf(term.text).filter(
        (form) =>
          !(loose.prefix && form.startsWith(term.text)) && !(loose.fuzzy && withinEdits(term.text, form, loose.fuzzy)),
      );
      if (forms.length > 0) loose.forms = forms;
    }
    return loose;
  });
}

/** Whether a query word matches a word of the text, by the rules it was given. */
export function wordMatches(term: Word, word: string): boolean {
  if (word === term.text) return true;
  if (term.prefix && word.startsWith(term.text)) return true;
  if (term.forms?.includes(word)) return true;
  return term.fuzzy !== undefined && term.fuzzy > 0 && withinEdits(term.text, word, term.fuzzy);
}

/** Whether `a` becomes `b` in at most `max` insertions, deletions and substitutions. */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return false;
    previous = row;
  }
  return (previous[b.length] as number) <= max;
}
