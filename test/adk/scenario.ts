/**
 * The conversation the differential test plays on each session service: two
 * users, four sessions, an assistant with tools that write every state scope, a
 * tool that returns nothing, parallel tool calls, `outputKey` (plain and
 * `temp:`), a two-agent pipeline, a user message carrying a state delta, and a
 * tool that needs the user's confirmation: asked for before the reload and
 * approved after it, then asked for and rejected; a transfer to a sub-agent, a
 * LoopAgent left by escalation, a long-running tool and an artifact save. It runs
 * in two phases; between them the store is closed and reopened.
 */
import {
  type Event as AdkEvent,
  type BaseSessionService,
  type Context,
  EXIT_LOOP,
  FunctionTool,
  InMemoryArtifactService,
  LlmAgent,
  type LlmResponse,
  LongRunningFunctionTool,
  LoopAgent,
  Runner,
  SequentialAgent,
} from '@google/adk';
import { vi } from 'vitest';
import { z } from 'zod';
import { call, calls, type RecordedRequest, ScriptedModel, say } from './scripted-model.js';

export const APP = 'diff-app';
/** Every session the scenario uses, in the order snapshots list them. */
export const SESSIONS = [
  { userId: 'alice', sessionId: 'a1', state: { topic: 'birds' } },
  { userId: 'alice', sessionId: 'a2', state: {} },
  { userId: 'bob', sessionId: 'b1', state: { topic: 'boats', nested: { list: [1, 'two', null], empty: {} } } },
  { userId: 'alice', sessionId: 'p1', state: { topic: 'birds' } },
] as const;

/** The clock is pinned so that timestamps are identical from one service to the next. */
export const T0 = Date.UTC(2025, 0, 1);
export const tick: () => void = () => vi.setSystemTime(Date.now() + 1);

function need(context: Context | undefined): Context {
  if (!context) throw new Error('tool called without a context');
  return context;
}

function tools() {
  const remember = new FunctionTool({
    name: 'remember',
    description: 'Remembers the user name',
    parameters: z.object({ name: z.string() }),
    execute: ({ name }, context) => {
      const { state } = need(context);
      const visits = ((state.get('app:visits') as number | undefined) ?? 0) + 1;
      state.set('user:name', name);
      state.set('app:visits', visits);
      state.set('lastTool', 'remember');
      state.set('profile', { name, tags: ['known'], meta: { since: visits, none: null } });
      state.set('temp:scratch', `noted ${name}`);
      return { saved: name, visits };
    },
  });
  const recall = new FunctionTool({
    name: 'recall',
    description: 'Says what is known',
    execute: (_input, context) => {
      const { state } = need(context);
      state.set('lastTool', 'recall');
      return {
        name: state.get('user:name') ?? null,
        visits: state.get('app:visits') ?? null,
        theme: state.get('app:theme') ?? null,
        topic: state.get('topic') ?? null,
        mood: state.get('mood') ?? null,
      };
    },
  });
  // Returns nothing: ADK answers the call with { result: undefined }.
  const noop = new FunctionTool({
    name: 'noop',
    description: 'Does nothing',
    execute: (_input, context) => {
      need(context).state.set('temp:noop', true);
    },
  });
  // ADK asks for confirmation with an event whose functionCall args hold a ToolConfirmation instance.
  const transfer = new FunctionTool({
    name: 'transfer',
    description: 'Sends money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    requireConfirmation: true,
    execute: ({ to, amount }, context) => {
      const { state } = need(context);
      state.set('app:transferred', ((state.get('app:transferred') as number | undefined) ?? 0) + amount);
      state.set('user:lastTransfer', { to, amount });
      return { sent: amount, to };
    },
  });
  // Long-running: ADK answers at once and lists the call in the event's longRunningToolIds.
  const book = new LongRunningFunctionTool({
    name: 'book',
    description: 'Starts booking a table',
    execute: () => ({ status: 'pending', ticket: 'T-1' }),
  });
  // Saves through ADK's artifact service: the event records the version in artifactDelta.
  const saveNote = new FunctionTool({
    name: 'save_note',
    description: 'Saves a note as a file',
    execute: async (_input, context) => {
      const version = await need(context).saveArtifact('note.txt', { text: 'remember the milk' });
      return { saved: 'note.txt', version };
    },
  });
  return [remember, recall, noop, transfer, book, saveNote];
}

/** The name of ADK's confirmation function call. */
export const CONFIRMATION = 'adk_request_confirmation';

export type Phase = 1 | 2;

interface Scripts {
  assistant: LlmResponse[];
  writer: LlmResponse[];
  reviewer: LlmResponse[];
  router: LlmResponse[];
  helper: LlmResponse[];
  looper: LlmResponse[];
}

const scripts: Record<Phase, Scripts> = {
  1: {
    assistant: [
      call('c1', 'remember', { name: 'Alice' }),
      say('Nice to meet you, Alice'),
      call('c2', 'remember', { name: 'Bob' }),
      say('Hello Bob'),
      calls(['c3', 'recall'], ['c4', 'noop']),
      say('You are Alice; the app had 2 visits'),
      say('You are welcome'),
      call('c7', 'transfer', { to: 'Bob', amount: 5 }),
    ],
    writer: [say('Draft: birds fly')],
    reviewer: [say('Approved')],
    router: [call('c9', 'transfer_to_agent', { agentName: 'helper' })],
    helper: [say('Helper here')],
    looper: [say('Round 1'), call('c10', 'exit_loop')],
  },
  2: {
    assistant: [
      say('Sent 5 to Bob'),
      call('c5', 'remember', { name: 'Ally' }),
      say('Noted, Ally'),
      call('c6', 'recall'),
      say('Bob, 3 visits'),
      call('c8', 'transfer', { to: 'Alice', amount: 7 }),
      say('Cancelled'),
      call('c11', 'book'),
      say('Booking started'),
      call('c12', 'save_note'),
      say('Saved'),
    ],
    writer: [say('Draft 2: birds sing')],
    reviewer: [say('Approved again')],
    router: [],
    helper: [],
    looper: [call('c13', 'exit_loop')],
  },
};

interface Turn {
  runner: 'assistant' | 'pipeline' | 'router' | 'loop';
  userId: string;
  sessionId: string;
  text: string;
  stateDelta?: Record<string, unknown>;
  /** Instead of `text`: the user's answer to the session's pending confirmation request. */
  confirm?: boolean;
}

const turns: Record<Phase, Turn[]> = {
  1: [
    {
      runner: 'assistant',
      userId: 'alice',
      sessionId: 'a1',
      text: 'My name is Alice',
      stateDelta: { mood: 'curious', 'user:lang': 'en', 'app:theme': 'dark', 'temp:req': 'r1' },
    },
    { runner: 'assistant', userId: 'bob', sessionId: 'b1', text: 'I am Bob' },
    { runner: 'assistant', userId: 'alice', sessionId: 'a2', text: 'What do you know?' },
    { runner: 'assistant', userId: 'alice', sessionId: 'a1', text: 'Thanks' },
    { runner: 'pipeline', userId: 'alice', sessionId: 'p1', text: 'Write about birds' },
    { runner: 'assistant', userId: 'alice', sessionId: 'a2', text: 'Send 5 to Bob' },
    { runner: 'router', userId: 'bob', sessionId: 'b1', text: 'Ask the helper' },
    { runner: 'loop', userId: 'alice', sessionId: 'p1', text: 'Loop until done' },
  ],
  2: [
    { runner: 'assistant', userId: 'alice', sessionId: 'a2', text: 'Yes', confirm: true },
    { runner: 'assistant', userId: 'alice', sessionId: 'a1', text: 'Remember me as Ally' },
    { runner: 'assistant', userId: 'bob', sessionId: 'b1', text: 'What do you know?', stateDelta: { mood: 'calm' } },
    { runner: 'pipeline', userId: 'alice', sessionId: 'p1', text: 'Again' },
    { runner: 'assistant', userId: 'bob', sessionId: 'b1', text: 'Send 7 to Alice' },
    { runner: 'assistant', userId: 'bob', sessionId: 'b1', text: 'No', confirm: false },
    { runner: 'loop', userId: 'alice', sessionId: 'p1', text: 'Once more' },
    { runner: 'assistant', userId: 'alice', sessionId: 'a1', text: 'Book a table' },
    { runner: 'assistant', userId: 'alice', sessionId: 'a1', text: 'Save a note' },
  ],
};

export interface PhaseRun {
  /** Every event each turn's `runAsync` yielded, in order. */
  yielded: AdkEvent[][];
  models: ScriptedModel[];
}

/** Plays one phase's turns through fresh runners over `sessionService`. */
export async function playPhase(
  phase: Phase,
  sessionService: BaseSessionService,
  log: RecordedRequest[],
): Promise<PhaseRun> {
  const script = scripts[phase];
  const assistantModel = new ScriptedModel('assistant-model', script.assistant, log, tick);
  const writerModel = new ScriptedModel('writer-model', script.writer, log, tick);
  const reviewerModel = new ScriptedModel('reviewer-model', script.reviewer, log, tick);
  const routerModel = new ScriptedModel('router-model', script.router, log, tick);
  const helperModel = new ScriptedModel('helper-model', script.helper, log, tick);
  const looperModel = new ScriptedModel('looper-model', script.looper, log, tick);
  const assistant = new LlmAgent({
    name: 'assistant',
    model: assistantModel,
    instruction:
      'Help {user:name?} (visits: {app:visits?}, theme: {app:theme?}). Topic: {topic?}. Mood: {mood?}. Scratch: {temp:scratch?}.',
    tools: tools(),
    outputKey: 'lastAnswer',
  });
  const pipeline = new SequentialAgent({
    name: 'pipeline',
    subAgents: [
      new LlmAgent({
        name: 'writer',
        model: writerModel,
        instruction: 'Write about {topic}.',
        outputKey: 'temp:draft',
      }),
      new LlmAgent({
        name: 'reviewer',
        model: reviewerModel,
        instruction: 'Review the draft: [{temp:draft?}]',
        outputKey: 'review',
      }),
    ],
  });
  const router = new LlmAgent({
    name: 'router',
    model: routerModel,
    instruction: 'Send the user to the right agent.',
    subAgents: [
      new LlmAgent({
        name: 'helper',
        model: helperModel,
        instruction: 'Help.',
      }),
    ],
  });
  const loop = new LoopAgent({
    name: 'loop',
    maxIterations: 5,
    subAgents: [
      new LlmAgent({
        name: 'looper',
        model: looperModel,
        instruction: 'Work until done, then call exit_loop.',
        tools: [EXIT_LOOP],
        outputKey: 'lastRound',
      }),
    ],
  });
  const artifactService = new InMemoryArtifactService();
  const runners = {
    assistant: new Runner({ appName: APP, agent: assistant, sessionService, artifactService }),
    pipeline: new Runner({ appName: APP, agent: pipeline, sessionService }),
    router: new Runner({ appName: APP, agent: router, sessionService }),
    loop: new Runner({ appName: APP, agent: loop, sessionService }),
  };
  const yielded: AdkEvent[][] = [];
  for (const turn of turns[phase]) {
    vi.setSystemTime(Date.now() + 1000);
    const events: AdkEvent[] = [];
    const newMessage =
      turn.confirm === undefined
        ? { role: 'user', parts: [{ text: turn.text }] }
        : await confirmation(sessionService, turn.userId, turn.sessionId, turn.confirm);
    for await (const event of runners[turn.runner].runAsync({
      userId: turn.userId,
      sessionId: turn.sessionId,
      newMessage,
      ...(turn.stateDelta ? { stateDelta: turn.stateDelta } : {}),
    })) {
      events.push(event);
    }
    yielded.push(events);
  }
  return { yielded, models: [assistantModel, writerModel, reviewerModel, routerModel, helperModel, looperModel] };
}

export async function createSessions(sessionService: BaseSessionService): Promise<void> {
  for (const { userId, sessionId, state } of SESSIONS) {
    vi.setSystemTime(Date.now() + 1);
    await sessionService.createSession({ appName: APP, userId, sessionId, state: structuredClone(state) });
  }
}

/**
 * The user's answer to the newest confirmation request stored in the session,
 * found the way an app finds it: by reading the session back from the service.
 */
async function confirmation(
  sessionService: BaseSessionService,
  userId: string,
  sessionId: string,
  confirmed: boolean,
): Promise<NonNullable<AdkEvent['content']>> {
  const session = await sessionService.getSession({ appName: APP, userId, sessionId });
  const request = session?.events
    .flatMap((e) => e.content?.parts ?? [])
    .map((p) => p.functionCall)
    .filter((c) => c?.name === CONFIRMATION)
    .at(-1);
  if (!request?.id) throw new Error(`no confirmation request stored in ${userId}/${sessionId}`);
  return {
    role: 'user',
    parts: [{ functionResponse: { id: request.id, name: CONFIRMATION, response: { confirmed } } }],
  };
}
