/**
 * What the streaming bench runs (issue 31), shared by its page and its driver: sizes, the
 * contenders, the conversation and the reply (seeded, the same for every contender), and the lag
 * of a second tab computed from what the writer appended and what the reader saw. Pure: no DOM, no
 * Node, so it is unit-tested.
 */
import { random } from '../random.js';

export interface StreamingSizes {
  /** Messages in the conversation before the reply. */
  historyMessages: number;
  /** Tokens in the reply, streamed in chunks of `minChunk`..`maxChunk` tokens. */
  replyTokens: number;
  minChunk: number;
  maxChunk: number;
  /** Time between two chunks, as a model streams them. */
  paceMs: number;
  /** Repetitions of the main-thread timing pass (the bytes and lag pass runs once). */
  repetitions: number;
}

export const FULL: StreamingSizes = {
  historyMessages: 500,
  replyTokens: 2000,
  minChunk: 1,
  maxChunk: 3,
  paceMs: 20,
  repetitions: 3,
};

/** A smoke run: every path once, a short reply into a short conversation. Its figures mean nothing. */
export const QUICK: StreamingSizes = {
  historyMessages: 20,
  replyTokens: 60,
  minChunk: 1,
  maxChunk: 3,
  paceMs: 5,
  repetitions: 1,
};

export type StreamingContender =
  | 'baseline'
  | 'tanstack'
  | 'naive-message'
  | 'naive-conversation'
  | 'draft-250'
  | 'draft-50'
  | 'draft-0'
  | 'draft-worker-250'
  | 'draft-worker-0';

export interface ContenderPlan {
  label: string;
  /** A draft of this store: where the store runs, and its `maxLossMs`. */
  draft?: { mode: 'in-thread' | 'worker'; maxLossMs: number };
}

export const CONTENDERS: Record<StreamingContender, ContenderPlan> = {
  baseline: { label: 'no storage: the stream alone' },
  tanstack: { label: 'TanStack AI indexedDBPersistence, its write queue' },
  'naive-message': { label: 'raw IndexedDB: put the message per chunk' },
  'naive-conversation': { label: 'raw IndexedDB: put the conversation per chunk' },
  'draft-250': { label: 'draft, maxLossMs 250, in-thread', draft: { mode: 'in-thread', maxLossMs: 250 } },
  'draft-50': { label: 'draft, maxLossMs 50, in-thread', draft: { mode: 'in-thread', maxLossMs: 50 } },
  'draft-0': { label: 'draft, maxLossMs 0, in-thread', draft: { mode: 'in-thread', maxLossMs: 0 } },
  'draft-worker-250': {
    label: 'draft, maxLossMs 250, through the worker',
    draft: { mode: 'worker', maxLossMs: 250 },
  },
  'draft-worker-0': { label: 'draft, maxLossMs 0, through the worker', draft: { mode: 'worker', maxLossMs: 0 } },
};

/** The bytes pass (in-thread, IndexedDB's `put`/`add` counted in the page), with a second tab watching each draft. */
export const BYTES_PASS: readonly StreamingContender[] = [
  'tanstack',
  'naive-message',
  'naive-conversation',
  'draft-250',
  'draft-50',
  'draft-0',
];

/**
 * The main-thread timing pass, nothing counted, no second tab. The conversation per chunk is left
 * out: it is TanStack's write without the library, and its bytes are the same.
 */
export const TIME_PASS: readonly StreamingContender[] = [
  'baseline',
  'tanstack',
  'naive-message',
  'draft-250',
  'draft-0',
  'draft-worker-250',
  'draft-worker-0',
];

const WORDS = (
  'the a of to and in is it that for on with as was at by this be from or an are not have ' +
  'tide harbour ferry weather morning evening north coast bridge station ticket schedule ' +
  'Lisbon Porto river walk museum lunch dinner train bus minutes hours kilometres route'
).split(' ');

/** The reply's tokens: words with their leading space, about five characters each, as a model's text tokens are. */
export function replyTokens(count: number, seed = 31): string[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => {
    const word = WORDS[Math.floor(next() * WORDS.length)] as string;
    return i === 0 ? word : ` ${word}`;
  });
}

/** The reply as the model streams it: the tokens joined in chunks of `min`..`max` tokens. */
export function replyChunks(sizes: StreamingSizes, seed = 31): string[] {
  const tokens = replyTokens(sizes.replyTokens, seed);
  const next = random(seed + 1);
  const chunks: string[] = [];
  for (let at = 0; at < tokens.length; ) {
    const take = sizes.minChunk + Math.floor(next() * (sizes.maxChunk - sizes.minChunk + 1));
    chunks.push(tokens.slice(at, at + take).join(''));
    at += take;
  }
  return chunks;
}

export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
  at: number;
}

/** The conversation before the reply: users' questions of 80-300 characters, answers of 300-1,500. */
export function history(count: number, t0 = 1_700_000_000_000): HistoryMessage[] {
  const next = random(7);
  return Array.from({ length: count }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const [min, max] = role === 'user' ? [80, 300] : [300, 1500];
    const length = min + Math.floor(next() * (max - min));
    let text = '';
    while (text.length < length) text += `${WORDS[Math.floor(next() * WORDS.length)]} `;
    return { role, text: text.slice(0, length), at: t0 + i * 30_000 };
  });
}

/** When the text had, or was seen with, a given length (epoch ms: both tabs read the same clock). */
export interface LengthAt {
  at: number;
  length: number;
}

export interface Lags {
  /** Per append, the reader's first sight of a text at least as long, minus the append's time. */
  lags: number[];
  /** Appends the reader never saw (a draft finished before its last write was seen). */
  unseen: number;
}

/**
 * Second-tab lag: for each append (`written`, in order, lengths not decreasing), the time from the
 * append until the reader first held a text at least that long (`seen`, in order). A sight before
 * the append (impossible unless the clocks disagree) counts as 0.
 */
export function lagsOf(written: readonly LengthAt[], seen: readonly LengthAt[]): Lags {
  const lags: number[] = [];
  let unseen = 0;
  let at = 0;
  for (const write of written) {
    while (at < seen.length && (seen[at] as LengthAt).length < write.length) at++;
    const sight = seen[at];
    if (sight === undefined) unseen++;
    else lags.push(Math.max(0, sight.at - write.at));
  }
  return { lags, unseen };
}
