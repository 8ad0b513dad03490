/**
 * What "matches" means, exactly: the rule every hit is checked against before
 * it is returned (so an index that lags behind the events can leave a hit out,
 * never return a wrong one), and where the snippet's marks go.
 *
 * - A word matches a word of the text equal to it once both are folded
 *   (./fold.ts: case, width, Latin and Greek diacritics, ß, đ, final ς:
 *   "cafe" finds "Café", "strasse" finds "Straße"); a word marked so also
 *   matches the words it begins, or words within its edits (./typing.ts).
 * - A CJK run of the query matches where it appears in a CJK run of the text.
 * - `'all'` (the default of `searchEvents`): every term matches. `'any'` (memory
 *   search, whose query is a whole user message): at least one word matches, or
 *   one character bigram of a CJK term appears.
 */
import { type Folded, fold, foldText, originalEnd } from './fold.js';
import { gramsOf, MAX_WORD, type Run, runsOf } from './tokenize.js';
import { loosen, type TypingOptions, wordMatches } from './typing.js';

/** How the words of a search query must match: `'all'` every word, `'any'` at least one (ranked by how well they match). */
export type MatchMode = 'all' | 'any';

export interface QueryTerm {
  kind: 'word' | 'cjk';
  text: string;
  /** A word that also matches the words it begins (the word being typed). */
  prefix?: boolean;
  /** A word that also matches words this many edits away (typos). */
  fuzzy?: number;
  /** Other forms of the word it also matches ("run" for "running"). */
  forms?: string[];
}

/**
 * A query's distinct terms; none for a query of only spaces and punctuation.
 * With `options`, words that may also match by prefix, with typos or in other forms (./typing.ts).
 */
export function parseQuery(query: string, options: TypingOptions = {}): QueryTerm[] {
  const seen = new Map<string, QueryTerm>();
  const folded = foldText(query);
  const runs = runsOf(folded);
  for (const run of runs) {
    const key = `${run.kind}:${run.text}`;
    if (!seen.has(key)) seen.set(key, { kind: run.kind, text: run.text });
  }
  const terms = [...seen.values()];
  if (!options.prefix && !options.fuzzy && !options.forms) return terms;
  const last = runs[runs.length - 1];
  // The last word is still being typed unless something follows it.
  const typing =
    last && last.start + last.text.length === folded.length ? seen.get(`${last.kind}:${last.text}`) : undefined;
  return loosen(terms, options, typing);
}

/** The pieces a CJK term is looked for by in `'any'` mode: its bigrams (or itself, one character long). */
export function looseGrams(term: string): string[] {
  const grams = gramsOf(term);
  return grams.length > 1 ? grams.slice(0, -1) : grams;
}

export interface Analysed {
  original: string;
  folded: Folded;
  runs: Run[];
  words: Set<string>;
}

export function analyse(text: string): Analysed {
  const folded = fold(text);
  const runs = runsOf(folded.text);
  const words = new Set<string>();
  for (const run of runs) if (run.kind === 'word' && run.text.length <= MAX_WORD) words.add(run.text);
  return { original: text, folded, runs, words };
}

function inCjk(doc: Analysed, piece: string): boolean {
  return doc.runs.some((run) => run.kind === 'cjk' && run.text.includes(piece));
}

function termMatches(doc: Analysed, term: QueryTerm, mode: MatchMode): boolean {
  if (term.kind === 'word') {
    if (term.text.length > MAX_WORD) return false;
    if (doc.words.has(term.text)) return true;
    if (term.forms?.some((form) => doc.words.has(form))) return true;
    if (!term.prefix && !term.fuzzy) return false;
    for (const word of doc.words) if (wordMatches(term, word)) return true;
    return false;
  }
  return mode === 'all' ? inCjk(doc, term.text) : looseGrams(term.text).some((g) => inCjk(doc, g));
}

export function matches(doc: Analysed, terms: readonly QueryTerm[], mode: MatchMode): boolean {
  if (terms.length === 0) return false;
  return mode === 'all' ? terms.every((t) => termMatches(doc, t, mode)) : terms.some((t) => termMatches(doc, t, mode));
}

/** Where the terms matched, as `[start, end)` UTF-16 ranges of the original text, sorted and merged. */
export function matchedRanges(doc: Analysed, terms: readonly QueryTerm[], mode: MatchMode): [number, number][] {
  const found: [number, number][] = [];
  const mark = (start: number, end: number) =>
    found.push([doc.folded.origin[start] as number, originalEnd(doc.folded, start, end)]);
  for (const run of doc.runs) {
    for (const term of terms) {
      if (term.kind === 'word') {
        if (run.kind === 'word' && run.text.length <= MAX_WORD && wordMatches(term, run.text))
          mark(run.start, run.start + run.text.length);
        continue;
      }
      if (run.kind !== 'cjk') continue;
      for (const piece of mode === 'all' ? [term.text] : looseGrams(term.text)) {
        for (let at = run.text.indexOf(piece); at >= 0; at = run.text.indexOf(piece, at + 1)) {
          mark(run.start + at, run.start + at + piece.length);
        }
      }
    }
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of found) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** A stretch of an event's text around its first match, and where the matches are in it. */
export interface Snippet {
  /** The stretch of text; an ellipsis (`…`) marks each end where it was cut. */
  text: string;
  /** `[start, end)` UTF-16 offsets into `text`. */
  ranges: [number, number][];
}

export const SNIPPET_LENGTH = 160;
const ELLIPSIS = '…';

/** Never starts or ends inside a surrogate pair. */
function safe(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && at < text.length && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

export function snippetOf(text: string, ranges: readonly [number, number][]): Snippet {
  const first = ranges[0]?.[0] ?? 0;
  let start = safe(text, Math.max(0, Math.min(first - 40, text.length - SNIPPET_LENGTH)));
  const end = safe(text, Math.min(text.length, start + SNIPPET_LENGTH));
  if (start < 0) start = 0;
  const lead = start > 0 ? ELLIPSIS : '';
  const shift = lead.length - start;
  const inside = ranges
    .filter(([a, b]) => a < end && b > start)
    .map(([a, b]): [number, number] => [Math.max(a, start) + shift, Math.min(b, end) + shift]);
  return { text: lead + text.slice(start, end) + (end < text.length ? ELLIPSIS : ''), ranges: inside };
}
