/**
 * `npx tsx bench/search/libraries.ts [events]`: the measurement the search
 * library was chosen by. MiniSearch and FlexSearch index the same chat corpus
 * (bench/search/corpus.ts, 100,000 messages by default) through the store's own
 * tokeniser, then answer the same search-box queries (every word required);
 * build time, query p50/p95, serialised size and the time to serialise and
 * load. In Node, one core: the ratios are what matter.
 */
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { parseQuery } from '../../src/core/text/match.js';
import { options, queryOf } from '../../src/core/text/minisearch.js';
import { gramsOf, indexTerms } from '../../src/core/text/tokenize.js';
import { messageText, QUERIES, random } from './corpus.js';

const count = Number(process.argv[2] ?? 100_000);
const next = random(7);
const docs = Array.from({ length: count }, (_, i) => ({ id: `s${i % 1000}/${i}`, text: messageText(next), t: i }));
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)] as number;
const ms = (t: number) => `${t.toFixed(t < 10 ? 2 : 0)} ms`;

function timeQueries(run: (query: string) => unknown): string {
  const times: number[] = [];
  for (let rep = 0; rep < 20; rep++) {
    for (const query of QUERIES) {
      const started = performance.now();
      run(query);
      times.push(performance.now() - started);
    }
  }
  return `query p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}`;
}

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const value = work();
  return [value, performance.now() - started];
}

{
  const [index, build] = timed(() => {
    const m = new MiniSearch(options);
    m.addAll(docs);
    return m;
  });
  const [json, save] = timed(() => JSON.stringify(index));
  const [, load] = timed(() => MiniSearch.loadJSON(json, options));
  const queries = timeQueries((q) => index.search(queryOf(parseQuery(q), 'all') ?? '').slice(0, 10));
  console.log(
    `MiniSearch: build ${ms(build)}, ${queries}, serialised ${(json.length / 1e6).toFixed(1)} MB in ${ms(save)}, loaded in ${ms(load)}`,
  );
}
{
  const [index, build] = timed(() => {
    const f = new FlexSearch.Index({ encode: indexTerms });
    for (const d of docs) f.add(d.id, d.text);
    return f;
  });
  let size = 0;
  const [, save] = timed(() =>
    index.export((_key: string, data: string) => {
      size += data?.length ?? 0;
    }),
  );
  // FlexSearch takes one string and splits it with the encoder: give it the query's bigrams and words.
  const terms = (q: string) =>
    parseQuery(q)
      .flatMap((t) => (t.kind === 'word' ? [t.text] : gramsOf(t.text)))
      .join(' ');
  const queries = timeQueries((q) => index.search(terms(q), { limit: 10 }));
  console.log(`FlexSearch: build ${ms(build)}, ${queries}, exported ${(size / 1e6).toFixed(1)} MB in ${ms(save)}`);
}
