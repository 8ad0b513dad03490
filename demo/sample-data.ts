/**
 * Sample data: N sessions x M events spread over a few users, with state
 * deltas on every scope and some tool calls. Seeded, so the same options give
 * the same conversations (ids aside). Each user's sessions go through every
 * topic before one repeats, so a user with at least as many sessions as there
 * are topics has them all, the Chinese and Japanese ones included (the demo's
 * seed changes each time: drawn at random, 6% of 40-session users had no
 * conversation in one of those languages, and searching for it found nothing).
 * Appends are issued without awaiting each one, so the store's group commit
 * writes many sessions' events per transaction.
 */
import type { Event, Session, SessionService } from '../src/index.js';

export interface SampleOptions {
  appName: string;
  users: number;
  sessions: number;
  eventsPerSession: number;
  /** Same seed, same content. Default 1. */
  seed?: number;
  /** Newest session's last event time. Default `Date.now()`. */
  now?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface SampleResult {
  sessions: number;
  events: number;
}

export const SAMPLE_LIMITS = { users: 1000, sessions: 100_000, eventsPerSession: 1000 } as const;

/** Sessions created, and their events appended, per round; also how often progress is told. */
const ROUND = 50;

type Topic = readonly [name: string, language: 'en' | 'zh' | 'ja'];
/** Topics, and the language the conversation is in: some are Chinese and Japanese, to search in. */
export const TOPICS: readonly Topic[] = [
  ['billing', 'en'],
  ['travel', 'en'],
  ['recipes', 'en'],
  ['bug triage', 'en'],
  ['weather', 'en'],
  ['gardening', 'en'],
  ['tax forms', 'en'],
  ['a birthday gift', 'en'],
  ['签证申请', 'zh'],
  ['北京的酒店', 'zh'],
  ['東京のホテル予約', 'ja'],
  ['京都旅行', 'ja'],
];

/** The user's first message, a later question, and an answer, in the topic's language. */
const WORDING = {
  en: {
    hello: (name: string, topic: string) => `Hi, my name is ${name}. I need help with ${topic}.`,
    question: (turn: number, topic: string) => `Question ${turn} about ${topic}?`,
    answer: (turn: number, topic: string) => `Answer ${turn} on ${topic}`,
  },
  zh: {
    hello: (name: string, topic: string) => `你好，我叫${name}。我需要关于${topic}的帮助。`,
    question: (turn: number, topic: string) => `关于${topic}的第${turn}个问题？`,
    answer: (turn: number, topic: string) => `关于${topic}的第${turn}个回答`,
  },
  ja: {
    hello: (name: string, topic: string) => `こんにちは、${name}です。${topic}について相談したいです。`,
    question: (turn: number, topic: string) => `${topic}についての質問${turn}です。`,
    answer: (turn: number, topic: string) => `${topic}についての回答${turn}`,
  },
};
const NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret', 'Linus', 'Radia', 'Donald'];
const PLANS = ['free', 'pro', 'team'];

/** mulberry32: a tiny seeded PRNG, good enough for sample text. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function actions(stateDelta: Record<string, unknown> = {}) {
  return { stateDelta, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
}

export function checkSampleOptions(options: SampleOptions): string | null {
  const checks: [keyof typeof SAMPLE_LIMITS, number, number][] = [
    ['users', options.users, 1],
    ['sessions', options.sessions, 1],
    ['eventsPerSession', options.eventsPerSession, 0],
  ];
  for (const [field, value, min] of checks) {
    if (!Number.isInteger(value) || value < min || value > SAMPLE_LIMITS[field]) {
      return `${field} must be a whole number from ${min} to ${SAMPLE_LIMITS[field]}`;
    }
  }
  if (options.appName.trim() === '' || options.appName.trim() !== options.appName) {
    return 'app name must not be empty or have surrounding spaces';
  }
  return null;
}

/** The topics in an order `rand` shuffles (Fisher-Yates): one user's next sessions, one each. */
function shuffledTopics(rand: () => number): Topic[] {
  const deck = [...TOPICS];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [deck[i], deck[j]] = [deck[j] as Topic, deck[i] as Topic];
  }
  return deck;
}

/** The events of one sample session on `topic`, ending at `end` (ms). Deterministic given `rand`. */
export function sampleEvents(
  rand: () => number,
  count: number,
  end: number,
  counter: { app: number },
  userName: string,
  [topic, language]: Topic,
): Event[] {
  const events: Event[] = [];
  const wording = WORDING[language];
  let t = end - count * 20_000;
  let invocation = '';
  for (let i = 0; i < count; i++) {
    t += 1000 + Math.floor(rand() * 19_000);
    const id = crypto.randomUUID();
    const turn = Math.floor(i / 2);
    if (i % 2 === 0) {
      invocation = `e-${crypto.randomUUID()}`;
      const text =
        turn === 0
          ? wording.hello(userName, topic)
          : turn % 4 === 3
            ? `add ${turn} and ${i}`
            : wording.question(turn, topic);
      events.push({
        id,
        invocationId: invocation,
        author: 'user',
        timestamp: t,
        content: { role: 'user', parts: [{ text }] },
        actions: actions(),
      });
    } else if (turn % 4 === 3) {
      const callId = `adk-${crypto.randomUUID()}`;
      const args = { a: turn, b: i - 1 };
      events.push({
        id,
        invocationId: invocation,
        author: 'demo_agent',
        timestamp: t,
        content: {
          role: 'model',
          parts: [
            { functionCall: { id: callId, name: 'add', args } },
            { functionResponse: { id: callId, name: 'add', response: { result: args.a + args.b } } },
          ],
        },
        actions: actions({ step: turn + 1, 'app:message_count': ++counter.app }),
      });
    } else {
      const delta: Record<string, unknown> = { step: turn + 1, topic, 'app:message_count': ++counter.app };
      if (turn === 0) {
        delta['user:name'] = userName;
        delta['user:plan'] = PLANS[Math.floor(rand() * PLANS.length)];
      }
      events.push({
        id,
        invocationId: invocation,
        author: 'demo_agent',
        timestamp: t,
        content: {
          role: 'model',
          parts: [{ text: `${wording.answer(turn + 1, topic)}${turn === 0 ? `, ${userName}` : ''}.` }],
        },
        actions: actions(delta),
        turnComplete: true,
      });
    }
  }
  return events;
}

/** Writes the sample data; resolves with what was written (less than asked if aborted). */
export async function generateSampleData(
  store: Pick<SessionService, 'createSession' | 'appendEvent'>,
  options: SampleOptions,
): Promise<SampleResult> {
  const problem = checkSampleOptions(options);
  if (problem) throw new RangeError(problem);
  const rand = random(options.seed ?? 1);
  const now = options.now ?? Date.now();
  const counter = { app: 0 };
  const result: SampleResult = { sessions: 0, events: 0 };
  /** Each user's topics not yet given, drawn from the end. */
  const decks = new Map<number, Topic[]>();
  const nextTopic = (user: number): Topic => {
    let deck = decks.get(user);
    if (!deck?.length) {
      deck = shuffledTopics(rand);
      decks.set(user, deck);
    }
    return deck.pop() as Topic;
  };
  options.onProgress?.(0, options.sessions);
  for (let start = 0; start < options.sessions; start += ROUND) {
    if (options.signal?.aborted) break;
    const size = Math.min(ROUND, options.sessions - start);
    const plans = Array.from({ length: size }, (_, k) => {
      const index = start + k;
      const user = index % options.users;
      const userName = NAMES[user % NAMES.length] as string;
      // Spread over the last week, newest last, so "sorted by last update" has something to sort.
      const end = now - Math.floor((options.sessions - 1 - index) * ((7 * 86_400_000) / options.sessions));
      return {
        userId: `user-${String(user + 1).padStart(3, '0')}`,
        events: sampleEvents(rand, options.eventsPerSession, end, counter, userName, nextTopic(user)),
      };
    });
    const created: Session[] = await Promise.all(
      plans.map((p) =>
        store.createSession({
          appName: options.appName,
          userId: p.userId,
          state: { 'app:sample_seed': options.seed ?? 1 },
        }),
      ),
    );
    await Promise.all(
      plans.flatMap((p, k) => p.events.map((event) => store.appendEvent({ session: created[k] as Session, event }))),
    );
    result.sessions += size;
    result.events += size * options.eventsPerSession;
    options.onProgress?.(result.sessions, options.sessions);
  }
  return result;
}
