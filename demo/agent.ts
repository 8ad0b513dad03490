/**
 * The demo agent: deterministic, offline, no model. One message is one
 * invocation that goes through the store exactly as an ADK Runner's would:
 * a user event, optionally a tool call and its response, then the agent's
 * reply, each appended to the session object the store returned, which the
 * store updates in place.
 *
 * State it keeps, one key per scope:
 * - `app:message_count`: messages sent to this app, by every user in every session;
 * - `user:name`: remembered from "my name is ...", known to all of that user's sessions;
 * - `step` (session): turns taken in this session; `last_intent` (session): what the last turn did;
 * - `temp:message` / `temp:tool_result`: read later in the same turn, never stored.
 */
import {
  type ArtifactFront,
  type Event,
  type Session,
  type SessionService,
  StaleSessionError,
  TEMP_PREFIX,
} from '../src/index.js';

export const AGENT_NAME = 'demo_agent';

export type Intent =
  | { kind: 'name'; name: string }
  | { kind: 'add'; a: number; b: number }
  | { kind: 'time' }
  | { kind: 'help' }
  | { kind: 'note'; note: string }
  | { kind: 'chat' };

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const ADD = new RegExp(String.raw`(${NUMBER})\s*(?:\+|plus|and)\s*(${NUMBER})`, 'i');
const NAME = /\b(?:my name is|i am|i'm|call me)\s+([\p{L}\p{N}][\p{L}\p{N}' .-]{0,39})/iu;

/** What a message asks for. Pure: the same text always gives the same intent. */
export function parseIntent(text: string): Intent {
  const note = /^\s*save a note:\s*([\s\S]+)$/i.exec(text)?.[1]?.trim();
  if (note) return { kind: 'note', note };
  const name = NAME.exec(text)?.[1]?.replace(/[ .]+$/, '');
  if (name) return { kind: 'name', name };
  const add = /\b(?:add|sum|plus|what is|what's|compute)\b|\+/i.test(text) ? ADD.exec(text) : null;
  if (add) return { kind: 'add', a: Number(add[1]), b: Number(add[2]) };
  if (/\b(?:what time|time is it|current time)\b/i.test(text)) return { kind: 'time' };
  if (/^\s*(?:help|\?|what can you do)\s*\??\s*$/i.test(text)) return { kind: 'help' };
  return { kind: 'chat' };
}

/** The store operations a turn needs: ADK's own shapes. */
export type TurnStore = Pick<SessionService, 'appendEvent' | 'getSession' | 'getAppState'> & {
  artifacts: Pick<ArtifactFront, 'saveArtifact'>;
};

/** Where "save a note: ..." goes: a session artifact, one version per note. */
export const NOTE_FILE = 'note.txt';

export interface TurnOptions {
  /** Clock for timestamps and the time tool. Default `Date.now`. */
  now?: () => number;
  /** Id source for events and the invocation. Default `crypto.randomUUID`. */
  newId?: () => string;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const clockTime = (ms: number): string => {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

function numberState(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Runs one turn for `text` on `session`, which must come from the store
 * (`createSession`, `getSession`, ...). Returns the stored events in order.
 * Should another tab have written to the session meanwhile, the session is
 * reloaded and the append retried once; the returned `session` is then the
 * reloaded object.
 */
export async function runTurn(
  store: TurnStore,
  initial: Session,
  text: string,
  options: TurnOptions = {},
): Promise<{ session: Session; events: Event[] }> {
  const newId = options.newId ?? (() => crypto.randomUUID());
  let clock = 0;
  // Strictly increasing, even within one millisecond: the timeline reads better, though order never depends on it.
  const now = (): number => {
    clock = Math.max(clock + 1, (options.now ?? Date.now)());
    return clock;
  };
  const invocationId = `e-${newId()}`;
  let session = initial;
  const stored: Event[] = [];

  const append = async (event: Omit<Event, 'id' | 'invocationId' | 'timestamp'>): Promise<void> => {
    const full: Event = { id: newId(), invocationId, timestamp: now(), ...event };
    try {
      stored.push(await store.appendEvent({ session, event: structuredClone(full) }));
    } catch (error) {
      if (!(error instanceof StaleSessionError)) throw error;
      const fresh = await store.getSession({
        appName: session.appName,
        userId: session.userId,
        sessionId: session.id,
        config: { numRecentEvents: 0 },
      });
      if (!fresh) throw error;
      // Keep this turn's temp: keys: they live in the session object, not in storage.
      for (const key of Object.keys(session.state)) {
        if (key.startsWith(TEMP_PREFIX)) {
          Object.defineProperty(fresh.state, key, { value: session.state[key], enumerable: true, writable: true });
        }
      }
      session = fresh;
      stored.push(await store.appendEvent({ session, event: structuredClone(full) }));
    }
  };

  await append({
    author: 'user',
    content: { role: 'user', parts: [{ text }] },
    actions: { ...emptyActions(), stateDelta: { 'temp:message': text } },
  });

  const intent = parseIntent(text);
  if (intent.kind === 'add' || intent.kind === 'time') {
    const callId = `adk-${newId()}`;
    const name = intent.kind === 'add' ? 'add' : 'get_current_time';
    const args = intent.kind === 'add' ? { a: intent.a, b: intent.b } : {};
    const response = intent.kind === 'add' ? { result: intent.a + intent.b } : { time: new Date(clock).toISOString() };
    await append({
      author: AGENT_NAME,
      content: { role: 'model', parts: [{ functionCall: { id: callId, name, args } }] },
      actions: emptyActions(),
    });
    await append({
      author: AGENT_NAME,
      content: { role: 'user', parts: [{ functionResponse: { id: callId, name, response } }] },
      actions: { ...emptyActions(), stateDelta: { 'temp:tool_result': response } },
    });
  }

  // The note is saved before the reply that records it, as ADK's Context.saveArtifact does.
  const artifactDelta: Record<string, number> = {};
  if (intent.kind === 'note') {
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
    artifactDelta[NOTE_FILE] = await store.artifacts.saveArtifact({
      ...key,
      filename: NOTE_FILE,
      artifact: { text: intent.note },
    });
  }

  const state = session.state;
  const appState = await store.getAppState({ appName: session.appName });
  const count = numberState(appState.message_count) + 1;
  const step = numberState(state.step) + 1;
  const delta: Record<string, unknown> = { 'app:message_count': count, step, last_intent: intent.kind };
  const name = intent.kind === 'name' ? intent.name : typeof state['user:name'] === 'string' ? state['user:name'] : '';
  if (intent.kind === 'name') delta['user:name'] = intent.name;
  await append({
    author: AGENT_NAME,
    content: {
      role: 'model',
      parts: [
        { text: reply(intent, state, { name, step, count, app: session.appName, saved: artifactDelta[NOTE_FILE] }) },
      ],
    },
    actions: { ...emptyActions(), stateDelta: delta, artifactDelta },
    turnComplete: true,
  });
  return { session, events: stored };
}

function reply(
  intent: Intent,
  state: Record<string, unknown>,
  facts: { name: string; step: number; count: number; app: string; saved?: number | undefined },
): string {
  const hello = facts.name ? `, ${facts.name}` : '';
  switch (intent.kind) {
    case 'name':
      return `Nice to meet you${hello}. I saved your name as user:name, so every session of yours in "${facts.app}" knows it.`;
    case 'add': {
      const result = (state['temp:tool_result'] as { result?: unknown } | undefined)?.result;
      return `${intent.a} + ${intent.b} = ${String(result)} (the add tool's answer, passed to me in temp:tool_result).`;
    }
    case 'time': {
      const time = (state['temp:tool_result'] as { time?: unknown } | undefined)?.time;
      return `It is ${typeof time === 'string' ? clockTime(Date.parse(time)) : 'unknown'}${hello} (from the get_current_time tool).`;
    }
    case 'note':
      return `Saved your note as ${NOTE_FILE} (version ${facts.saved}): see it under Artifacts.`;
    case 'help':
      return [
        'I am an offline demo agent: no model, same answer for the same input. Try:',
        '• "my name is Ada": remembered in user:name (user scope)',
        '• "add 2 and 3" or "what time is it": a tool call and its response',
        '• "save a note: buy milk": a text artifact, recorded in artifactDelta',
        '• anything else: an echo',
        'Every reply counts app:message_count (app scope) and step (session scope).',
      ].join('\n');
    case 'chat': {
      const heard = typeof state['temp:message'] === 'string' ? state['temp:message'] : '';
      return `Hello${hello}! You said "${heard}". That is turn ${facts.step} of this session and message ${facts.count} to "${facts.app}".`;
    }
  }
}

function emptyActions() {
  return { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} };
}
