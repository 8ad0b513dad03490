/**
 * How MiniSearch is driven: it indexes the terms of ./tokenize.ts as they are
 * (already folded), and is asked with query trees built from a query's terms.
 */
import type { Options, Query } from 'minisearch';
import type { MatchMode, QueryTerm } from './match.js';
import { gramsOf, indexTerms, MAX_WORD } from './tokenize.js';

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

/**
 * The MiniSearch query for `terms`. `'all'`: every word, and every CJK term
 * through all of its bigrams (a single character by prefix: the bigrams it
 * starts, or itself at a run's end). `'any'`: any word or bigram, ranked by BM25.
 */
export function queryOf(terms: readonly QueryTerm[], mode: MatchMode): Query | undefined {
  const parts: Query[] = [];
  for (const term of terms) {
    if (term.kind === 'word') {
      if (term.text.length <= MAX_WORD) parts.push(term.text);
      else if (mode === 'all') return undefined;
      continue;
    }
    const grams = gramsOf(term.text);
    if (grams.length === 1) parts.push({ queries: grams, prefix: true });
    else if (mode === 'all') parts.push({ combineWith: 'AND', queries: grams.slice(0, -1) });
    else parts.push(...grams.slice(0, -1));
  }
  if (parts.length === 0) return undefined;
  return { combineWith: mode === 'all' ? 'AND' : 'OR', queries: parts };
}

/**
 * A score as results are ordered by: to 12 significant digits, so that two
 * hits scored equal stay equal when an index rebuilt in another order sums
 * its floating-point statistics a little differently.
 */
export const rankOf = (score: number): number => Number(score.toPrecision(12));

/** Better score first; among equal scores the newest first, then by `key` (a fixed order, whatever the index). */
export function byRank<T extends { score: number; t: number; key: string }>(a: T, b: T): number {
  return b.score - a.score || b.t - a.t || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}
