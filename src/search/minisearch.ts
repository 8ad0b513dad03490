/**
 * How MiniSearch is driven: it indexes the terms of ./tokenize.ts as they are
 * (already folded), and is asked with query trees built from a query's terms.
 */
import type { Options, Query } from 'minisearch';
import type { MatchMode, QueryTerm } from './match.js';
import { gramsOf, indexTerms, MAX_WORD } from './tokenize.js';

export type Doc = { id: string; text: string };

const identity = (term: string) => term;

export const options: Options<Doc> = {
  fields: ['text'],
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
