/**
 * The page of the streaming bench (run.ts). One reply streamed, chunk by chunk at the model's pace,
 * into a conversation, stored by each contender:
 * - `tanstack`: `@tanstack/ai-client`'s `indexedDBPersistence()`, called as its `ChatPersistor` calls
 *   it: on every message change, `setItem(thread, { messages })` with the whole message list, through
 *   the same ordered queue (client-persistor.js `runOperation`: the first write starts at once, each
 *   later one after the one before). The package does not export `ChatPersistor`, so its queue is
 *   copied here. No write beyond one per chunk (ChatClient's own writes at a run's start and end are
 *   left out).
 * - `naive-message`: raw IndexedDB, one transaction per chunk putting the assistant message (its
 *   whole text so far), not awaited; `naive-conversation`: the same putting the whole conversation.
 * - `draft-*`: this store, the session holding the conversation as events, `drafts.begin`, an
 *   `append({ text })` per chunk and `finish()`; in the page's thread (`mode: 'in-thread'`) or
 *   through its worker (`openSessionStore`'s default mode: the origin's SharedWorker in Chromium).
 * - `baseline`: the stream alone (the text kept as it grows, nothing stored).
 *
 * `run` can count the bytes of every value handed to `IDBObjectStore.prototype.put` and `add` in
 * this page (UTF-8 bytes of the value's JSON; a contender through the worker writes outside it), and
 * record when each append's text reached which length. `watch` (in another page) follows a draft
 * with `watchDrafts` and records when it saw which length.
 */
import { indexedDBPersistence, type UIMessage } from '@tanstack/ai-client';
import {
  type DraftWriter,
  type Event,
  openSessionStore,
  type Session,
  type SessionStore,
  watchDrafts,
} from '../../src/index.js';
import { committed, request } from '../raw-idb.js';
import {
  CONTENDERS,
  history,
  type LengthAt,
  replyChunks,
  type StreamingContender,
  type StreamingSizes,
} from './plan.js';

export interface StreamResult {
  /** Bytes of the values put or added in this page while streaming (with `countBytes`). */
  bytes: number;
  /** `put`/`add` calls counted. */
  writes: number;
  /** Time inside the per-chunk storage calls (`append`, the queue's push, the `put`), summed. */
  callMs: number;
  /** From the start (a draft's `begin`) until everything is stored. */
  wallMs: number;
  chunks: number;
  textLength: number;
  /** Each append's time and the text's length after it (with `recordAppends`). */
  appended: LengthAt[];
}

export interface RunOptions {
  countBytes: boolean;
  recordAppends: boolean;
  /** Time to leave the reader after the last append before finishing (a lag run). */
  settleMs: number;
}

declare global {
  interface Window {
    streamingBench: {
      prepare(contender: StreamingContender, runId: string, sizes: StreamingSizes): Promise<void>;
      run(
        contender: StreamingContender,
        runId: string,
        sizes: StreamingSizes,
        options: RunOptions,
      ): Promise<StreamResult>;
      cleanup(contender: StreamingContender, runId: string): Promise<void>;
      watch(runId: string): Promise<void>;
      stopWatch(): LengthAt[];
    };
  }
}

const APP = 'chat';
const USER = 'ada';
const keyOf = (runId: string) => ({ appName: APP, userId: USER, sessionId: runId });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// --- counting what IndexedDB is handed ----------------------------------------------------------

const counter = { on: false, bytes: 0, writes: 0 };
const sizeOf = (value: unknown): number => new Blob([JSON.stringify(value) ?? '']).size;
for (const method of ['put', 'add'] as const) {
  const original = IDBObjectStore.prototype[method];
  IDBObjectStore.prototype[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    if (counter.on) {
      counter.bytes += sizeOf(value);
      counter.writes++;
    }
    return key === undefined ? original.call(this, value) : original.call(this, value, key);
  };
}

// --- the contenders' storage ---------------------------------------------------------------------

const tanstack = indexedDBPersistence({ databaseName: 'bench-tanstack' });

let naiveDb: Promise<IDBDatabase> | undefined;
function naive(): Promise<IDBDatabase> {
  naiveDb ??= (() => {
    const open = indexedDB.open('bench-naive', 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore('messages', { keyPath: 'id' });
      open.result.createObjectStore('conversations');
    };
    return request(open);
  })();
  return naiveDb;
}

const stores: Partial<Record<'in-thread' | 'worker', SessionStore>> = {};
function storeFor(mode: 'in-thread' | 'worker'): SessionStore {
  stores[mode] ??=
    mode === 'in-thread'
      ? openSessionStore({ dbName: 'bench-streaming', mode: 'in-thread' })
      : openSessionStore({ dbName: 'bench-streaming-worker' });
  return stores[mode];
}

const uiMessage = (id: string, role: UIMessage['role'], text: string, at: number): UIMessage => ({
  id,
  role,
  parts: [{ type: 'text', content: text }],
  createdAt: new Date(at),
});

const asEvent = (runId: string, i: number, m: ReturnType<typeof history>[number]): Event => ({
  id: `${runId}-${i}`,
  invocationId: `turn-${Math.floor(i / 2)}`,
  author: m.role === 'user' ? 'user' : 'model',
  timestamp: m.at,
  content: { role: m.role === 'user' ? 'user' : 'model', parts: [{ text: m.text }] },
});

/** What `prepare` made for a run: the conversation as each contender holds it. */
const prepared = new Map<string, { messages: UIMessage[]; session?: Session }>();

/** ChatPersistor's write queue (client-persistor.js `runOperation`), as it orders `setItem` calls. */
class OrderedQueue {
  private queue: Promise<unknown> = Promise.resolve();
  private pending = false;

  push(operation: () => Promise<void>): void {
    if (this.pending) {
      const queued = this.queue.then(operation).catch(() => {});
      this.queue = queued;
      void queued.finally(() => {
        if (this.queue === queued) this.pending = false;
      });
      return;
    }
    this.pending = true;
    const queued = operation().catch(() => {});
    this.queue = queued;
    void queued.finally(() => {
      if (this.queue === queued) this.pending = false;
    });
  }

  /** Resolves once every write pushed so far is done. */
  async drained(): Promise<void> {
    while (this.pending) await this.queue;
  }
}

// --- one reply, streamed -------------------------------------------------------------------------

/** Per chunk, the contender's storage call; `end` stores the rest and resolves once all is stored. */
interface Sink {
  chunk(text: string, chunk: string): void;
  end(): Promise<void>;
}

async function sinkFor(contender: StreamingContender, runId: string): Promise<Sink> {
  const held = prepared.get(runId);
  if (!held) throw new Error(`run ${runId} was not prepared`);
  const replyId = `${runId}-reply`;
  const startedAt = Date.now();
  const plan = CONTENDERS[contender];
  if (plan.draft) {
    if (!held.session) throw new Error(`run ${runId} has no session`);
    const draft: DraftWriter = await storeFor(plan.draft.mode).drafts.begin({
      session: held.session,
      id: replyId,
      maxLossMs: plan.draft.maxLossMs,
    });
    return {
      chunk: (_, chunk) => draft.append({ text: chunk }),
      end: async () => void (await draft.finish()),
    };
  }
  switch (contender) {
    case 'baseline':
      return { chunk: () => {}, end: async () => {} };
    case 'tanstack': {
      const queue = new OrderedQueue();
      return {
        chunk: (text) => {
          const messages = [...held.messages, uiMessage(replyId, 'assistant', text, startedAt)];
          queue.push(async () => tanstack.setItem(runId, { messages }));
        },
        end: () => queue.drained(),
      };
    }
    case 'naive-message':
    case 'naive-conversation': {
      const db = await naive();
      let last: Promise<void> = Promise.resolve();
      return {
        chunk: (text) => {
          const message = uiMessage(replyId, 'assistant', text, startedAt);
          const tx = db.transaction(contender === 'naive-message' ? 'messages' : 'conversations', 'readwrite');
          if (contender === 'naive-message') tx.objectStore('messages').put(message);
          else tx.objectStore('conversations').put({ messages: [...held.messages, message] }, runId);
          last = committed(tx);
        },
        end: () => last,
      };
    }
    default:
      throw new Error(`no contender ${contender}`);
  }
}

window.streamingBench = {
  async prepare(contender, runId, sizes) {
    const messages = history(sizes.historyMessages);
    const ui = messages.map((m, i) => uiMessage(`${runId}-${i}`, m.role, m.text, m.at));
    const plan = CONTENDERS[contender];
    if (plan.draft) {
      const store = storeFor(plan.draft.mode);
      const session = await store.createSession(keyOf(runId));
      await Promise.all(messages.map((m, i) => store.appendEvent({ session, event: asEvent(runId, i, m) })));
      prepared.set(runId, { messages: ui, session });
    } else {
      if (contender === 'tanstack') await tanstack.setItem(runId, { messages: ui });
      if (contender === 'naive-message' || contender === 'naive-conversation') {
        const tx = (await naive()).transaction(['messages', 'conversations'], 'readwrite');
        if (contender === 'naive-message') for (const m of ui) tx.objectStore('messages').put(m);
        else tx.objectStore('conversations').put({ messages: ui }, runId);
        await committed(tx);
      }
      prepared.set(runId, { messages: ui });
    }
  },

  async run(contender, runId, sizes, options) {
    const chunks = replyChunks(sizes);
    const appended: LengthAt[] = [];
    let callMs = 0;
    let text = '';
    counter.bytes = 0;
    counter.writes = 0;
    counter.on = options.countBytes;
    const begun = performance.now();
    const sink = await sinkFor(contender, runId);
    const started = performance.now();
    for (let i = 0; i < chunks.length; i++) {
      // Chunks arrive on the model's schedule, whatever the writes cost.
      const due = started + i * sizes.paceMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const chunk = chunks[i] as string;
      text += chunk;
      const before = performance.now();
      sink.chunk(text, chunk);
      callMs += performance.now() - before;
      if (options.recordAppends) appended.push({ at: Date.now(), length: text.length });
    }
    if (options.settleMs > 0) await sleep(options.settleMs);
    await sink.end();
    const wallMs = performance.now() - begun;
    counter.on = false;
    return {
      bytes: counter.bytes,
      writes: counter.writes,
      callMs,
      wallMs,
      chunks: chunks.length,
      textLength: text.length,
      appended,
    };
  },

  async cleanup(contender, runId) {
    const plan = CONTENDERS[contender];
    const held = prepared.get(runId);
    prepared.delete(runId);
    if (plan.draft) await storeFor(plan.draft.mode).deleteSession(keyOf(runId));
    else if (contender === 'tanstack') await tanstack.removeItem(runId);
    else if (contender === 'naive-message' || contender === 'naive-conversation') {
      const tx = (await naive()).transaction(['messages', 'conversations'], 'readwrite');
      tx.objectStore('conversations').delete(runId);
      for (const m of held?.messages ?? []) tx.objectStore('messages').delete(m.id);
      tx.objectStore('messages').delete(`${runId}-reply`);
      await committed(tx);
    }
  },

  // --- the second tab ----------------------------------------------------------------------------

  watch(runId) {
    const seen: LengthAt[] = [];
    watching = { seen, stop: () => {} };
    reader ??= openSessionStore({ dbName: 'bench-streaming' });
    const store = reader;
    return new Promise<void>((resolve, reject) => {
      const stop = watchDrafts(store, keyOf(runId)).watch((drafts) => {
        const draft = drafts[0];
        if (draft) {
          const length = (draft.content.parts ?? []).reduce((n, p) => n + (p.text?.length ?? 0), 0);
          seen.push({ at: Date.now(), length });
        }
        resolve();
      }, reject);
      if (watching) watching.stop = stop;
    });
  },

  stopWatch() {
    const held = watching;
    watching = undefined;
    held?.stop();
    return held?.seen ?? [];
  },
};

let reader: SessionStore | undefined;
let watching: { seen: LengthAt[]; stop: () => void } | undefined;
