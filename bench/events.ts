/**
 * The one record generator every contender writes: ADK-shaped events of about
 * 500 bytes of JSON, each with a small session-scoped state delta. Text is
 * pseudo-random letters from a seeded generator, so it neither compresses away
 * (IndexedDB compresses values on disk) nor differs between contenders.
 */
import type { Event } from '../src/index.js';

/** A fixed-seed xorshift generator: same seed, same text, in every run. */
function letters(seed: number, length: number): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    const c = x % 28;
    out += c >= 26 ? ' ' : String.fromCharCode(97 + c);
  }
  return out;
}

/** Length of the message text that brings an event to about 500 bytes of JSON. */
const TEXT_LENGTH = 200;

/** Event `seq` of session number `session`; `t0` is the session's first timestamp. */
export function makeEvent(session: number, seq: number, t0: number): Event {
  const author = seq % 2 === 0 ? 'user' : 'model';
  return {
    id: `e-${session}-${seq}`,
    invocationId: `inv-${session}-${seq >> 1}`,
    author,
    timestamp: t0 + seq,
    content: { role: author, parts: [{ text: letters(session * 1_000_003 + seq, TEXT_LENGTH) }] },
    actions: {
      stateDelta: { turn: seq, lastAuthor: author, [`slot${seq % 8}`]: `value-${seq}` },
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    },
    turnComplete: author === 'model',
  };
}

/** Events `from` to `to - 1` of one session. */
export function makeEvents(session: number, from: number, to: number, t0: number): Event[] {
  const out: Event[] = [];
  for (let seq = from; seq < to; seq++) out.push(makeEvent(session, seq, t0));
  return out;
}

/** The state a session holds after events `0 .. count - 1`: what every contender's read must return. */
export function stateAfter(session: number, count: number, t0: number): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (let seq = Math.max(0, count - 8); seq < count; seq++) {
    Object.assign(state, makeEvent(session, seq, t0).actions?.stateDelta);
  }
  return state;
}

/** A small initial state for sessions of the listing fixtures (about 100 bytes). */
export function listingState(i: number): Record<string, unknown> {
  return { title: `conversation ${i}`, model: 'gemini-flash', pinned: i % 10 === 0, tokens: i * 37 };
}
