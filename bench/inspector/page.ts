/**
 * The page of the inspector bench (run.ts). `seed` writes a store holding a few short sessions and,
 * newest, one long agent session (text, tool calls and their results, confirmations, errors, state
 * deltas in every scope). In a fresh page each time, `open` mounts the inspector on that store the
 * one-line way and times `open()` until the newest event's row is on screen (and until the whole
 * session is joined), and `baseline` times the store's own `getSession` of the whole session, both
 * after the page's first call to its store (an app that is running has opened its store). `scroll`
 * then moves the open inspector's event list from top to bottom and records every frame, and `idle`
 * records as many frames of the same page standing still (the frames the machine gives any page).
 */
import { type Event, openSessionStore, type Session, type SessionStore } from '../../src/index.js';
import { mountInspector } from '../../src/inspector/index.js';
import { random } from '../random.js';

export interface OpenTimes {
  /** `open()` until the newest event's row is in the DOM. */
  inDomMs: number;
  /** Until the frame that paints it has been rendered. */
  shownMs: number;
  /** Until that frame and the tasks queued before it are done (the views' effects: what an earlier version of this bench took as shown). */
  settledMs: number;
  /** Until the whole session is read and joined ("N of N"). */
  completeMs: number;
  /** Rows in the DOM once complete (the list is virtualised). */
  rowsInDom: number;
}

export interface BaselineTimes {
  /** `getSession` of the whole session. */
  wholeMs: number;
  events: number;
}

export interface FrameTimes {
  /** `requestAnimationFrame` to the next, over the scroll. */
  deltas: number[];
  /** long-animation-frame entries (Chromium), ms each. */
  longFrames: number[];
  /** Scroll distance in px. */
  distance: number;
  /** The newest event's row was rendered at the end (the list followed the scroll). */
  reachedEnd: boolean;
}

declare global {
  interface Window {
    inspectorBench: {
      seed(events: number, others: number): Promise<{ ms: number; stored: number }>;
      open(events: number): Promise<OpenTimes>;
      baseline(): Promise<BaselineTimes>;
      scroll(pxPerFrame: number): Promise<FrameTimes>;
      idle(frames: number): Promise<FrameTimes>;
      startFrames(): void;
      stopFrames(): FrameTimes;
    };
  }
}

const DB = 'inspector-bench';
const APP = 'travel-agent';
const KEY = { appName: APP, userId: 'ada', sessionId: 'long-trip' };
const TOOLS = ['search_flights', 'get_weather', 'book_hotel', 'convert_currency', 'lookup_visa'];
const WORDS =
  'the a flight hotel to from in on Lisbon Tokyo price night window seat late early rain sunny visa euro yen check book cancel room breakfast arrive leave gate delay'.split(
    ' ',
  );

const sentence = (next: () => number, words: number): string =>
  Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');

/**
 * The events of an agent's turns, `count` of them: the user's message, a tool call, its result,
 * the model's answer with state deltas; some turns ask for a confirmation, some meet an error.
 * (No partial events: the store keeps none, as ADK's session services do not.)
 */
export function agentEvents(count: number, t0: number, seed: number): Event[] {
  const next = random(seed);
  const out: Event[] = [];
  let turn = 0;
  while (out.length < count) {
    const invocationId = `inv-${seed}-${turn}`;
    const tool = TOOLS[turn % TOOLS.length] as string;
    const callId = `call-${seed}-${turn}`;
    const at = (): number => t0 + out.length * 1500 + Math.floor(next() * 900);
    const base = (author: string): Pick<Event, 'id' | 'invocationId' | 'author' | 'timestamp'> => ({
      id: `ev-${seed}-${out.length}`,
      invocationId,
      author,
      timestamp: at(),
    });
    out.push({ ...base('user'), content: { role: 'user', parts: [{ text: sentence(next, 8 + (turn % 20)) }] } });
    if (turn % 9 === 4) {
      const ask = `confirm-${seed}-${turn}`;
      out.push({
        ...base('planner'),
        content: {
          role: 'model',
          parts: [{ functionCall: { id: ask, name: 'adk_request_confirmation', args: { tool, amount: turn * 3 } } }],
        },
        longRunningToolIds: [ask],
      });
      out.push({
        ...base('user'),
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: ask, name: 'adk_request_confirmation', response: { confirmed: true } } }],
        },
      });
    }
    out.push({
      ...base('planner'),
      content: {
        role: 'model',
        parts: [{ functionCall: { id: callId, name: tool, args: { query: sentence(next, 4), day: turn % 28 } } }],
      },
    });
    out.push({
      ...base('planner'),
      content: {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: callId,
              name: tool,
              response: {
                results: Array.from({ length: 3 }, (_, i) => ({ name: sentence(next, 3), price: 100 + i * 17 + turn })),
              },
            },
          },
        ],
      },
      actions: { stateDelta: { [`temp:${tool}`]: turn }, artifactDelta: {} },
    });
    if (turn % 13 === 6) {
      out.push({ ...base('planner'), errorCode: 'RESOURCE_EXHAUSTED', errorMessage: 'quota exceeded, retrying' });
    }
    out.push({
      ...base('planner'),
      content: { role: 'model', parts: [{ text: sentence(next, 40 + (turn % 60)) }] },
      actions: {
        stateDelta: {
          turn,
          last_tool: tool,
          [`spent_${turn % 6}`]: turn * 11,
          ...(turn % 10 === 0 ? { 'user:home_city': sentence(next, 1), 'app:model': 'gemini-flash' } : {}),
        },
        artifactDelta: {},
      },
      turnComplete: true,
    });
    turn += 1;
  }
  return out.slice(0, count);
}

async function seedSession(store: SessionStore, userId: string, sessionId: string, events: Event[]): Promise<void> {
  const session: Session = await store.createSession({ appName: APP, userId, sessionId, state: { plan: 'free' } });
  for (let i = 0; i < events.length; i += 500) {
    await store.appendEvents({ session, events: events.slice(i, i + 500), durability: 'relaxed' });
  }
}

const nextFrame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
/**
 * Once the next frame is rendered: a task posted at 'user-blocking' priority from its
 * animation-frame callbacks runs as soon as the frame is done, ahead of tasks queued before it
 * (the views' own effects, which Preact runs after the paint and a timer would wait behind).
 */
const painted = (): Promise<number> =>
  new Promise((resolve) =>
    requestAnimationFrame(() => {
      scheduler.postTask(() => resolve(performance.now()), { priority: 'user-blocking' });
    }),
  );
/** Once the next frame is rendered and the tasks queued before it have run (a timer from its animation-frame callbacks). */
const settled = (): Promise<number> =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));

/** Resolves with `performance.now()` the first time `test` holds after a change under `root`. */
function when(root: ShadowRoot, test: () => boolean): Promise<number> {
  return new Promise((resolve) => {
    if (test()) return resolve(performance.now());
    const observer = new MutationObserver(() => {
      if (!test()) return;
      observer.disconnect();
      resolve(performance.now());
    });
    observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

let frames: { deltas: number[]; longFrames: number[]; stop(): void } | undefined;

function recordFrames(): NonNullable<typeof frames> {
  const deltas: number[] = [];
  const longFrames: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longFrames.push(entry.duration);
  });
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
    observer.observe({ type: 'long-animation-frame' });
  let running = true;
  let last = performance.now();
  const tick = (now: number) => {
    if (!running) return;
    deltas.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
  return {
    deltas,
    longFrames,
    stop() {
      running = false;
      for (const entry of observer.takeRecords()) longFrames.push(entry.duration);
      observer.disconnect();
    },
  };
}

const shadow = (): ShadowRoot => {
  const root = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot;
  if (!root) throw new Error('open the inspector first');
  return root;
};
const scroller = (): HTMLElement => {
  const el = shadow().querySelector<HTMLElement>('.scroller');
  if (!el) throw new Error('no event list');
  return el;
};
let total = 0;

window.inspectorBench = {
  async seed(events, others) {
    const started = performance.now();
    const store = openSessionStore({ dbName: DB });
    const t0 = Date.now() - events * 1500 - 86_400_000;
    for (let i = 0; i < others; i += 1)
      await seedSession(store, `user-${i % 4}`, `short-${i}`, agentEvents(20 + i * 3, t0 - 86_400_000, i + 1));
    await seedSession(store, KEY.userId, KEY.sessionId, agentEvents(events, t0, 0));
    const ms = performance.now() - started;
    const stored = (await store.getSession(KEY))?.events.length ?? 0;
    await store.close();
    return { ms, stored };
  },

  async open(events) {
    total = events;
    const store = openSessionStore({ dbName: DB });
    await store.listApps();
    const started = performance.now();
    const inspector = mountInspector(store, { position: 'full' });
    const root = shadow();
    // A row's `data-index` is its event's place among those read so far (the newest few hundred
    // first, then all): the newest is shown when the row of the last one read is.
    const inDom = when(root, () => {
      const read = /of (\d+)/.exec(root.querySelector('.col-head [role="status"]')?.textContent ?? '');
      const count = Number(read?.[1] ?? 0);
      return count > 0 && root.querySelector(`.ev[data-index="${count - 1}"]`) !== null;
    });
    const complete = when(
      root,
      () => root.querySelector('.col-head [role="status"]')?.textContent === `${events} of ${events}`,
    );
    const shown = inDom.then(painted);
    const settle = inDom.then(settled);
    await inspector.open();
    const inDomAt = await inDom;
    const shownAt = await shown;
    const settledAt = await settle;
    const completeAt = await complete;
    return {
      inDomMs: inDomAt - started,
      shownMs: shownAt - started,
      settledMs: settledAt - started,
      completeMs: completeAt - started,
      rowsInDom: root.querySelectorAll('.rows > li').length,
    };
  },

  async baseline() {
    const store = openSessionStore({ dbName: DB });
    await store.listApps();
    const started = performance.now();
    const session = await store.getSession(KEY);
    return { wholeMs: performance.now() - started, events: session?.events.length ?? 0 };
  },

  async scroll(pxPerFrame) {
    const el = scroller();
    el.scrollTop = 0;
    for (let i = 0; i < 5; i += 1) await nextFrame();
    const recorder = recordFrames();
    await nextFrame();
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
      el.scrollTop += pxPerFrame;
      await nextFrame();
    }
    for (let i = 0; i < 3; i += 1) await nextFrame();
    recorder.stop();
    return {
      deltas: recorder.deltas,
      longFrames: recorder.longFrames,
      distance: el.scrollTop,
      reachedEnd: shadow().querySelector(`.ev[data-index="${total - 1}"]`) !== null,
    };
  },

  /** The same page's frames with nothing moving: what the machine's load alone does to frames. */
  async idle(count) {
    const recorder = recordFrames();
    while (recorder.deltas.length < count) await nextFrame();
    recorder.stop();
    return { deltas: recorder.deltas, longFrames: recorder.longFrames, distance: 0, reachedEnd: true };
  },

  startFrames() {
    const el = scroller();
    el.scrollTop = 0;
    frames = recordFrames();
  },

  stopFrames() {
    if (!frames) throw new Error('startFrames first');
    frames.stop();
    const { deltas, longFrames } = frames;
    frames = undefined;
    return {
      deltas,
      longFrames,
      distance: scroller().scrollTop,
      reachedEnd: shadow().querySelector(`.ev[data-index="${total - 1}"]`) !== null,
    };
  },
};
