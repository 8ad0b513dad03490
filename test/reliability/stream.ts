/**
 * Append streams for the crash tests, and the check run after a crash: the
 * stored events of a stream are exactly its first k events in order (a prefix:
 * nothing skipped, nothing twice), every acknowledged append is among them,
 * and the session's state is exactly the fold of the stored deltas (no event
 * without its state change, no state change without its event).
 */
import type { Event, Session, SessionService } from '../../src/index.js';
import { SessionStoreError } from '../../src/index.js';
import { canonical } from './dump.js';

export const STREAM_BASE_TIME = 1_800_000_000_000;

export const streamEventId = (sid: string, i: number): string => `${sid}-${i}`;

/** Text that does not compress (IndexedDB compresses values, so repeated characters would never fill a disk). */
function incompressible(length: number, seed: number): string {
  const next = random(seed);
  const chars: string[] = [];
  for (let i = 0; i < length; i++) chars.push(String.fromCharCode(33 + Math.floor(next() * 94)));
  return chars.join('');
}

/** Event `i` of stream `sid`: touches its session, its user's and its app's state, and a temp key. */
export function streamEvent(sid: string, i: number, payloadBytes = 0): Event {
  const id = streamEventId(sid, i);
  return {
    id,
    invocationId: `inv-${sid}`,
    author: i % 2 ? 'model' : 'user',
    timestamp: STREAM_BASE_TIME + i,
    content: {
      role: i % 2 ? 'model' : 'user',
      parts: [{ text: payloadBytes > 0 ? incompressible(payloadBytes, i) : id }],
    },
    actions: {
      stateDelta: {
        n: i,
        last: id,
        [`history-${i % 3}`]: i,
        [`user:last-${sid}`]: i,
        [`app:last-${sid}`]: i,
        'temp:scratch': i,
      },
      artifactDelta: {},
    },
  };
}

/** A small seeded generator (mulberry32), so random choices replay with the seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StreamOutcome {
  sid: string;
  issued: number;
  acked: number[];
  /** The first rejection, if the stream stopped on one. */
  error?: { name: string; code?: string; message: string; typed: boolean };
}

/**
 * Appends events 0..count-1 of stream `sid` through `session`, in bursts of
 * 1..maxBurst issued together (one writer, so they batch), until done or an
 * append is rejected. `onAck` is told of each append once it has resolved.
 */
export async function runStream(
  store: SessionService,
  session: Session,
  options: {
    count: number;
    maxBurst: number;
    rng: () => number;
    payloadBytes?: number;
    /** Waits up to this many ms (at random) between bursts, as events trickle in from a model. */
    pauseMs?: number;
    onAck?: (ack: string) => void;
  },
): Promise<StreamOutcome> {
  const sid = session.id;
  const outcome: StreamOutcome = { sid, issued: 0, acked: [] };
  let i = 0;
  while (i < options.count) {
    if (options.pauseMs && i > 0) await new Promise((done) => setTimeout(done, options.rng() * (options.pauseMs ?? 0)));
    const size = Math.min(options.count - i, 1 + Math.floor(options.rng() * options.maxBurst));
    const burst = Array.from({ length: size }, (_, k) => i + k);
    i += size;
    outcome.issued = i;
    const results = await Promise.allSettled(
      burst.map((n) =>
        store.appendEvent({ session, event: streamEvent(sid, n, options.payloadBytes) }).then(() => {
          outcome.acked.push(n);
          options.onAck?.(`${sid}:${n}`);
        }),
      ),
    );
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failed) {
      const e = failed.reason as Error & { code?: string };
      outcome.error = {
        name: e?.name,
        ...(e?.code ? { code: e.code } : {}),
        message: String(e?.message),
        typed: e instanceof SessionStoreError,
      };
      return outcome;
    }
  }
  return outcome;
}

/** Folds deltas as the store applies them: later values replace earlier ones. */
function fold(events: Event[]): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const e of events) {
    const delta = e.actions?.stateDelta ?? {};
    for (const k of Object.keys(delta)) {
      Object.defineProperty(state, k, { value: delta[k], enumerable: true, writable: true, configurable: true });
    }
  }
  return state;
}

/**
 * Problems with a stream's stored session after a crash (empty when it is
 * consistent): see the file comment. `acked` are stream indices that resolved.
 */
export function streamProblems(session: Session | undefined, sid: string, issued: number, acked: number[]): string[] {
  if (!session) return [`session ${sid} is missing`];
  const problems: string[] = [];
  const ids = session.events.map((e) => e.id);
  const stored = ids.length;
  ids.forEach((id, k) => {
    if (id !== streamEventId(sid, k)) problems.push(`event ${k} is ${id}, expected ${streamEventId(sid, k)}`);
  });
  if (stored > issued) problems.push(`${stored} events stored but only ${issued} issued`);
  for (const n of acked) if (n >= stored) problems.push(`acknowledged append ${n} is not stored (${stored} stored)`);
  const folded = fold(session.events);
  for (const k of Object.keys(folded)) {
    if (k.startsWith('temp:')) problems.push(`stored delta kept ${k}`);
  }
  const own = (state: Record<string, unknown>) =>
    canonical(
      Object.fromEntries(
        Object.entries(state).filter(
          ([k]) =>
            !(k.startsWith('app:') || k.startsWith('user:')) || k === `app:last-${sid}` || k === `user:last-${sid}`,
        ),
      ),
    );
  if (own(session.state) !== own(folded)) {
    problems.push(`state ${own(session.state)} is not the fold of the stored deltas ${own(folded)}`);
  }
  const last = session.events[stored - 1];
  if (last && session.lastUpdateTime !== last.timestamp) {
    problems.push(`lastUpdateTime ${session.lastUpdateTime} is not the last event's ${last.timestamp}`);
  }
  return problems;
}
