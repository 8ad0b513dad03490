/**
 * How MiniSearch is driven: it indexes the terms of ./tokenize.ts as they are
 * (already folded), and is asked with query trees built from a query's terms,
 * each leaf weighted (./weights.ts) and, for a word, matched by prefix,
 * within edits or through its other forms when the term says so (./typing.ts
 * decides which). Results are ordered by `byRank`, not MiniSearch's order.
 */
import type { Options, Query, SearchResult } from 'minisearch';
import { CJK } from './fold.js';
import type { MatchMode, QueryTerm } from './match.js';
import { gramsOf, indexTerms, MAX_WORD } from './tokenize.js';
import { weightOf } from './weights.js';

/** `t`: the event's timestamp, kept in the index to order equal scores. */
export type Doc = { id: string; text: string; t: number };

const identity = (term: string) => term;

export const options: Options<Doc> = {
  fields: ['text'],
  storeFields: ['t'],
  tokenize: indexTerms,
  processTerm: identity,
  searchOptions: { tokenize: (query: string) => [query], processTerm: identity },
};

/** Most pieces (words, bigrams) an `'any'` query asks the index for: a longer message keeps those that tell most. */
export const MAX_ANY_PIECES = 64;

/** One leaf of a query: a word or CJK piece, with how it may match and what it weighs. */
interface Piece {
  text: string;
  weight: number;
  prefix: boolean;
  fuzzy: number;
  /** Other forms of a word, asked for beside it at `FORM_WEIGHT`. */
  forms: string[];
}

/** What a match through another form of a word weighs against the word as written (MiniSearch's fuzzy: 0.45). */
const FORM_WEIGHT = 0.5;

const boosts = new Map<number, () => number>();
function boost(weight: number): () => number {
  let boostTerm = boosts.get(weight);
  if (!boostTerm) {
    boostTerm = () => weight;
    boosts.set(weight, boostTerm);
  }
  return boostTerm;
}

function leaf({ text, weight, prefix, fuzzy, forms }: Piece): Query {
  const word: Query =
    weight === 1 && !prefix && !fuzzy ? text : { queries: [text], boostTerm: boost(weight), prefix, fuzzy };
  if (forms.length === 0) return word;
  const other: Query = {
    combineWith: 'OR',
    queries: forms,
    boostTerm: boost(weight * FORM_WEIGHT),
    prefix: false,
    fuzzy: false,
  };
  return { combineWith: 'OR', queries: [word, other] };
}

const piece = (kind: QueryTerm['kind'], text: string, prefix = false, fuzzy = 0, forms: string[] = []): Piece => ({
  text,
  weight: weightOf(kind, text),
  prefix,
  fuzzy,
  forms,
});

/**
 * The MiniSearch query for `terms`. `'all'`: every word, and every CJK term
 * through all of its bigrams (a single character by prefix: the bigrams it
 * starts, or itself at a run's end). `'any'`: any word or bigram, ranked by
 * BM25, at most `MAX_ANY_PIECES` of them: content before function words, then
 * (with `frequency`, how many documents hold a piece) the rarest, as BM25
 * would weigh them most; pieces no document holds could add nothing.
 */
export function queryOf(
  terms: readonly QueryTerm[],
  mode: MatchMode,
  frequency?: (piece: string) => number,
): Query | undefined {
  const parts: Query[] = [];
  const loose: Piece[] = [];
  for (const term of terms) {
    if (term.kind === 'word') {
      if (term.text.length > MAX_WORD) {
        if (mode === 'all') return undefined;
        continue;
      }
      const word = piece('word', term.text, term.prefix, term.fuzzy, term.forms);
      if (mode === 'all') parts.push(leaf(word));
      else loose.push(word);
      continue;
    }
    const grams = gramsOf(term.text);
    if (grams.length === 1) {
      const single = piece('cjk', grams[0] as string, true);
      if (mode === 'all') parts.push(leaf(single));
      else loose.push(single);
    } else if (mode === 'all')
      parts.push({ combineWith: 'AND', queries: grams.slice(0, -1).map((g) => leaf(piece('cjk', g))) });
    else loose.push(...grams.slice(0, -1).map((g) => piece('cjk', g)));
  }
  if (mode === 'any') parts.push(...select(loose, frequency).map(leaf));
  if (parts.length === 0) return undefined;
  return { combineWith: mode === 'all' ? 'AND' : 'OR', queries: parts };
}

function select(pieces: Piece[], frequency: ((piece: string) => number) | undefined): Piece[] {
  const seen = new Set<string>();
  const distinct = pieces.filter((p) => !seen.has(p.text) && seen.add(p.text));
  if (distinct.length <= MAX_ANY_PIECES) return distinct;
  // A prefix or typo piece stands for terms unknown here: it is kept. A word is held in any of its forms.
  const held = (p: Piece) => p.forms.reduce((n, form) => n + (frequency?.(form) ?? 0), frequency?.(p.text) ?? 0);
  const found = frequency
    ? distinct
        .map((p) => ({ p, n: p.prefix || p.fuzzy ? 0 : held(p) }))
        .filter(({ p, n }) => n > 0 || p.prefix || p.fuzzy)
    : distinct.map((p) => ({ p, n: 0 }));
  return found
    .map((f, at) => ({ ...f, at }))
    .sort((a, b) => b.p.weight - a.p.weight || a.n - b.n || a.at - b.at)
    .slice(0, MAX_ANY_PIECES)
    .map(({ p }) => p);
}

/**
 * A score as results are ordered by: to 12 significant digits, so that two
 * hits scored equal stay equal when an index rebuilt in another order sums
 * its floating-point statistics a little differently.
 */
export const rankOf = (score: number): number => Number(score.toPrecision(12));

/**
 * A result's score, ready to order by. MiniSearch multiplies the BM25 sum by
 * how many query terms matched, each counted as one, so an entry sharing
 * "what", "did", "I" and "about" with the query gets four times its (already
 * lowered) sum: here each matched term counts at its weight instead.
 */
export function scoreOf(result: SearchResult): number {
  const matched = result.queryTerms;
  let quality = 0;
  for (const term of matched) quality += weightOf(CJK.test(term) ? 'cjk' : 'word', term);
  return rankOf((result.score / (matched.length || 1)) * quality);
}

/** Better score first; among equal scores the newest first, then by `key` (a fixed order, whatever the index). */
export function byRank<T extends { score: number; t: number; key: string }>(a: T, b: T): number {
  return b.score - a.score || b.t - a.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
