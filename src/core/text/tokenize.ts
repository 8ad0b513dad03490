/**
 * Splitting folded text into what is indexed and what a query asks for.
 * Words of space-separated scripts are whole tokens; Chinese, Japanese and
 * Korean runs are indexed as overlapping character bigrams plus the run's last
 * character, so any substring of two or more characters is found through its
 * bigrams and a single character through the bigrams it starts (and the last
 * one). Bigrams, not a dictionary segmenter, for CJK: a segmenter's output
 * depends on the context, so a query segmented alone could miss the same word
 * segmented inside a sentence. `Intl.Segmenter` splits the scripts written
 * without spaces that are not CJK (Thai, Lao, Khmer, Myanmar), in chunks.
 */
import { type CharClass, classOf, foldText } from './fold.js';

export interface Run {
  kind: 'word' | 'cjk';
  /** Folded text of the run. */
  text: string;
  /** Position in the folded text. */
  start: number;
}

/** Longer words (base64, hashes, URLs run together) are not indexed. */
export const MAX_WORD = 64;
/** How much of a spaceless run `Intl.Segmenter` gets at a time: V8's is pathologically slow on long input. */
const SEGMENT_CHUNK = 256;
const SPACELESS = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

type Segmenter = { segment(input: string): Iterable<{ segment: string; index: number; isWordLike?: boolean }> };
let segmenter: Segmenter | null | undefined;

function wordSegmenter(): Segmenter | null {
  if (segmenter === undefined) {
    const Ctor = (Intl as unknown as { Segmenter?: new (locale?: string, options?: object) => Segmenter }).Segmenter;
    segmenter = Ctor ? new Ctor(undefined, { granularity: 'word' }) : null;
  }
  return segmenter;
}

/** The word and CJK runs of folded text, in order. */
export function runsOf(folded: string): Run[] {
  const runs: Run[] = [];
  let kind: Exclude<CharClass, 'mark'> = 'other';
  let start = 0;
  let at = 0;
  const close = (end: number) => {
    if (kind === 'other' || end <= start) return;
    const text = folded.slice(start, end);
    if (kind === 'word' && SPACELESS.test(text)) runs.push(...segmentRun(text, start));
    else runs.push({ kind, text, start });
  };
  for (const char of folded) {
    const next = classOf(char);
    // A mark left uncomposed (ｱﾞ) stays with its letter's run rather than splitting it.
    if (next !== kind && next !== 'mark') {
      close(at);
      kind = next;
      start = at;
    }
    at += char.length;
  }
  close(at);
  return runs;
}

function segmentRun(text: string, offset: number): Run[] {
  const words = wordSegmenter();
  if (!words) return [{ kind: 'word', text, start: offset }];
  const runs: Run[] = [];
  for (let chunk = 0; chunk < text.length; chunk += SEGMENT_CHUNK) {
    for (const { segment, index, isWordLike } of words.segment(text.slice(chunk, chunk + SEGMENT_CHUNK))) {
      if (isWordLike !== false) runs.push({ kind: 'word', text: segment, start: offset + chunk + index });
    }
  }
  return runs;
}

/** The bigrams of a CJK run, and its last character (a single character's run is just that). */
export function gramsOf(run: string): string[] {
  const chars = [...run];
  const grams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) grams.push((chars[i] as string) + (chars[i + 1] as string));
  if (chars.length > 0) grams.push(chars[chars.length - 1] as string);
  return grams;
}

/** What a document is indexed under. */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const run of runsOf(foldText(text))) {
    if (run.kind === 'cjk') terms.push(...gramsOf(run.text));
    else if (run.text.length <= MAX_WORD) terms.push(run.text);
  }
  return terms;
}
