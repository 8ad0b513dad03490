/**
 * TanStack AI's `ChatClientPersistence` on a session store. The ChatClient hands
 * over the whole `{ messages }` record on every change, streaming chunks
 * included; this keeps what was stored per message and writes only what
 * changed: each new or changed finished message is one event (replaced in place
 * when it changes), and the reply streaming in goes into a draft, appended by
 * what is new, finished into its event in one transaction. A thread's writes run
 * one pass at a time over the newest record, so a pass that failed is retried
 * whole by the next. `setItem` returns nothing to wait for: the ChatClient
 * holds every later write back behind a pending one, and drops a rejection.
 * Failures are the store's typed errors: `onError` hears each one, and `flush`
 * rejects with it.
 */
import type { ChatClientPersistence, ChatPersistedState, UIMessage } from '@tanstack/ai-client';
import {
  AlreadyExistsError,
  type DraftsFront,
  type DraftWriter,
  SessionStoreError,
  StaleSessionError,
  StorageError,
  withoutRewound,
} from '../index.js';
import type { Event, Session, SessionKey, SessionService } from '../types.js';
import { draftToMessage, eventToMessage, holdsMessage, messageToEvent } from './messages.js';
import { ReplyParts } from './reply.js';

/** What `chatClientPersistence` needs of a store (any store from `openSessionStore` has it). */
export type ChatClientStore = Pick<SessionService, 'getSession' | 'getOrCreateSession' | 'appendEvent'> & {
  /** Several events in one transaction. */
  appendEvents(request: { session: Session; events: Event[] }): Promise<Event[]>;
  /** Undoes the session's turns from an invocation on (a cleared chat, a regenerated reply). */
  rewind(request: SessionKey & { beforeInvocationId: string }): Promise<Event>;
  /** Where the reply streams into. */
  drafts: Pick<DraftsFront, 'begin' | 'list' | 'resume' | 'drop'>;
};

/** Which session a chat is kept in, and how. */
export interface ChatClientPersistenceOptions {
  /** The sessions' app. */
  appName: string;
  /** The sessions' user. */
  userId: string;
  /** The session of a chat (the ChatClient's `threadId`): one for every chat, or one per chat; default the `threadId`. */
  sessionId?: string | ((threadId: string) => string);
  /** Author of assistant messages in the stored events (default `'assistant'`). */
  author?: string;
  /** How much of a streaming reply a crash may lose, in ms (`BeginDraftRequest.maxLossMs`; default 250). */
  maxLossMs?: number;
  /**
   * Hears each failed write, typed (`QuotaExceededError`, `StoreClosedError`, ...): the ChatClient
   * never learns of one. What failed is written with the next change, or the next `flush`.
   */
  onError?: (error: SessionStoreError, threadId: string) => void;
}

/** `ChatClientPersistence` kept in a session store, with what the ChatClient cannot ask for itself. */
export interface StoredChatPersistence extends ChatClientPersistence {
  /**
   * For `ChatClient({ onFinish })`: the reply is finished, its draft turns into its event. Without
   * it a reply is finished once a message follows it; a reload before that finds it interrupted.
   */
  onFinish(message: UIMessage): void;
  /** Resolves once everything handed over for `threadId` is stored; rejects with the write's typed error. */
  flush(threadId: string): Promise<void>;
  /** Writes what the reply's draft holds and lets it go unfinished, as a closed tab does (`DraftWriter.release`). */
  release(threadId: string): Promise<void>;
}

/** The reply streaming in: its draft and what it was given. */
interface Open {
  id: string;
  /** Begun once there is something to write. */
  writer?: Promise<DraftWriter>;
  parts: ReplyParts;
  /** Its draft refused a delta (larger than one write): nothing more is appended, so it stays a prefix. */
  refused?: boolean;
}

/** What this page knows of one chat's session. */
interface Thread {
  key: SessionKey;
  session?: Promise<Session>;
  /** Stored messages by id, in order: what their event was made from, and its invocation. */
  stored: Map<string, { made: string; invocationId: string }>;
  /** Interrupted drafts `getItem` handed out as partial replies, by id, with what was handed out. */
  partials: Map<string, string>;
  open?: Open;
  latest?: UIMessage[];
  running: Promise<void>;
  queued?: Promise<void>;
  /** The failure last heard, until a pass succeeds. */
  reported?: SessionStoreError;
}

const typed = (error: unknown): SessionStoreError =>
  error instanceof SessionStoreError ? error : new StorageError(`chat persistence: ${String(error)}`, { cause: error });

/** Keeps each TanStack AI chat (`ChatClient({ threadId, persistence })`) in a session of `store`. */
export function chatClientPersistence(
  store: ChatClientStore,
  options: ChatClientPersistenceOptions,
): StoredChatPersistence {
  const { appName, userId, author = 'assistant' } = options;
  const threads = new Map<string, Thread>();
  /** Replies `onFinish` was told of, by message id. */
  const finished = new Set<string>();
  const made = (message: UIMessage): string => {
    const { timestamp: _, ...event } = messageToEvent(message, author);
    return JSON.stringify(event);
  };
  const thread = (threadId: string): Thread => {
    let found = threads.get(threadId);
    if (!found) {
      const sessionId =
        typeof options.sessionId === 'function' ? options.sessionId(threadId) : (options.sessionId ?? threadId);
      found = {
        key: { appName, userId, sessionId },
        stored: new Map(),
        partials: new Map(),
        running: Promise.resolve(),
      };
      threads.set(threadId, found);
    }
    return found;
  };
  const report = (t: Thread, threadId: string, error: unknown): SessionStoreError => {
    const failure = typed(error);
    // Once per kind of failure in a row: a full disk fails every chunk's pass alike.
    if (t.reported?.code !== failure.code) options.onError?.(failure, threadId);
    t.reported = failure;
    return failure;
  };
  const sessionOf = (t: Thread): Promise<Session> => {
    t.session ??= store.getOrCreateSession({ ...t.key });
    const loading = t.session;
    loading.catch(() => {
      if (t.session === loading) t.session = undefined;
    });
    return loading;
  };
  /** Runs `write` on the session, read again once if another tab moved it on. */
  const onSession = async <T>(t: Thread, write: (session: Session) => Promise<T>): Promise<T> => {
    try {
      return await write(await sessionOf(t));
    } catch (error) {
      if (!(error instanceof StaleSessionError)) throw error;
      t.session = undefined;
      return write(await sessionOf(t));
    }
  };

  const append = async (t: Thread, messages: UIMessage[]): Promise<void> => {
    if (messages.length === 0) return;
    const events = messages.map((m) => messageToEvent(m, author));
    await onSession(t, (session) => store.appendEvents({ session, events }));
    for (const m of messages) t.stored.set(m.id, { made: made(m), invocationId: m.id });
  };

  /** The reply `message` into its draft: begun once there is something to write, appended by what is new. */
  const stream = async (t: Thread, message: UIMessage): Promise<void> => {
    // The stream renames its reply (TEXT_MESSAGE_START gives the server's id): the same draft goes on.
    if (t.open && t.open.id !== message.id && t.open.parts.matches(message)) t.open.id = message.id;
    if (t.open && t.open.id !== message.id) await close(t, undefined);
    t.open ??= { id: message.id, parts: new ReplyParts() };
    const open = t.open;
    const deltas = open.parts.deltas(message);
    if (deltas.length === 0 && !open.writer) return;
    open.writer ??= onSession(t, async (session) => {
      const request = {
        session,
        author,
        id: message.id,
        invocationId: message.id,
        ...(options.maxLossMs === undefined ? {} : { maxLossMs: options.maxLossMs }),
      };
      try {
        return await store.drafts.begin(request);
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
        // A draft left under this id (a reply streamed again from its start): this one replaces it.
        await store.drafts.drop({ ...t.key, draftId: message.id });
        return store.drafts.begin(request);
      }
    });
    let writer: DraftWriter;
    try {
      writer = await open.writer;
    } catch (error) {
      // Not begun: the next pass begins it again, from the start of the message.
      if (t.open === open) t.open = undefined;
      throw error;
    }
    if (open.refused) return;
    try {
      for (const delta of deltas) writer.append(delta);
    } catch (error) {
      open.refused = true;
      throw error;
    }
    if (writer.error) throw writer.error;
  };

  /** The open reply as its final event (`message`), or dropped when the client no longer has it. */
  const close = async (t: Thread, message: UIMessage | undefined): Promise<void> => {
    const open = t.open;
    if (!open) return;
    const writer = await open.writer?.catch(() => undefined);
    if (!message) {
      t.open = undefined;
      await writer?.abandon();
      return;
    }
    if (!writer) {
      t.open = undefined;
      return append(t, [message]);
    }
    const event = messageToEvent(message, author);
    await onSession(t, (session) => writer.finish({ event, session }));
    t.open = undefined;
    t.stored.set(message.id, { made: made(message), invocationId: message.id });
  };

  /** Undoes the stored messages from `id` on: they stay stored, as an alternative a rewind keeps. */
  const rewindFrom = async (t: Thread, id: string, shown: Set<string>): Promise<void> => {
    const ids = [...t.stored.keys()];
    const from = ids.indexOf(id);
    const first = t.stored.get(id);
    // Only the chat's end is undone (a cleared chat, a reply regenerated): a message taken from its middle stays stored.
    if (from < 0 || !first || ids.slice(from).some((later) => shown.has(later))) return;
    await store.rewind({ ...t.key, beforeInvocationId: first.invocationId });
    t.session = undefined;
    for (const gone of ids.slice(from)) t.stored.delete(gone);
  };

  /** One pass over the newest record: the stored session brought in line with it. */
  const pass = async (t: Thread): Promise<void> => {
    const messages = t.latest;
    if (!messages) return;
    const ids = new Set(messages.map((m) => m.id));
    const removed = [...t.stored.keys()].find((id) => !ids.has(id));
    if (removed !== undefined) await rewindFrom(t, removed, ids);
    const last = messages.at(-1);
    for (const [id, shown] of t.partials) {
      const at = messages.findIndex((m) => m.id === id);
      if (at >= 0 && at === messages.length - 1 && made(messages[at] as UIMessage) === shown) continue;
      // Followed by a message, the cut-off reply is kept as it was shown (its unanswered tool calls
      // answered, see `draftToMessage`), in the transaction that removes its draft; changed or gone, it is dropped.
      if (at >= 0 && at < messages.length - 1 && made(messages[at] as UIMessage) === shown) {
        const event = { ...messageToEvent(messages[at] as UIMessage, author), interrupted: true };
        const kept = await onSession(t, async (session) => {
          const writer = await store.drafts.resume({ session, draftId: id });
          return writer.finish({ event, session }).catch(async (error: unknown) => {
            await writer.release();
            throw error;
          });
        });
        t.stored.set(id, { made: shown, invocationId: kept.invocationId ?? id });
      } else await store.drafts.drop({ ...t.key, draftId: id });
      t.partials.delete(id);
    }
    const streaming =
      last?.role === 'assistant' && !finished.has(last.id) && !t.stored.has(last.id) && !t.partials.has(last.id)
        ? last
        : undefined;
    if (t.open && !streaming && !ids.has(t.open.id)) await close(t, undefined);
    let batch: UIMessage[] = [];
    for (const message of messages) {
      if (message === streaming || t.partials.has(message.id)) continue;
      if (t.open?.id === message.id) {
        await append(t, batch);
        batch = [];
        await close(t, message);
      } else if (t.stored.get(message.id)?.made !== made(message)) batch.push(message);
    }
    await append(t, batch);
    if (streaming) await stream(t, streaming);
  };

  const schedule = (t: Thread): Promise<void> => {
    if (t.queued) return t.queued;
    const run = t.running
      .catch(() => {})
      .then(() => {
        t.queued = undefined;
        return pass(t);
      });
    t.queued = run;
    t.running = run;
    return run;
  };
  const scheduled = async (threadId: string, t: Thread): Promise<void> => {
    try {
      await schedule(t);
      t.reported = undefined;
    } catch (error) {
      throw report(t, threadId, error);
    }
  };

  return {
    async getItem(threadId) {
      const t = thread(threadId);
      await t.running.catch(() => {});
      try {
        const session = await store.getSession({ ...t.key });
        if (!session) return null;
        const shown = withoutRewound(session.events).filter(holdsMessage);
        const messages = shown.map(eventToMessage);
        t.stored = new Map(
          shown.map((e, i) => [e.id, { made: made(messages[i] as UIMessage), invocationId: e.invocationId ?? e.id }]),
        );
        const drafts = (await store.drafts.list({ ...t.key })).filter((d) => d.interrupted);
        const partials = drafts.map(draftToMessage);
        t.partials = new Map(partials.map((m) => [m.id, made(m)]));
        return { messages: [...messages, ...partials] };
      } catch (error) {
        throw report(t, threadId, error);
      }
    },
    setItem(threadId, state: ChatPersistedState) {
      const t = thread(threadId);
      t.latest = [...state.messages];
      // Nothing returned to wait for: the ChatClient holds every later change back behind a pending
      // promise, and drops its rejection. Failures reach `onError` and `flush`.
      scheduled(threadId, t).catch(() => {});
    },
    removeItem(threadId) {
      const t = thread(threadId);
      t.latest = [];
      scheduled(threadId, t).catch(() => {});
    },
    onFinish(message) {
      // The ChatClient may call this before `setItem` has the message (its writes queue behind ours):
      // the message is finished whenever a pass sees it.
      finished.add(message.id);
      for (const [threadId, t] of threads) {
        if (!t.latest?.some((m) => m.id === message.id)) continue;
        t.latest = t.latest.map((m) => (m.id === message.id ? message : m));
        // Heard by `onError` and `flush`; the ChatClient ignores what `onFinish` returns.
        scheduled(threadId, t).catch(() => {});
      }
    },
    async flush(threadId) {
      const t = thread(threadId);
      await scheduled(threadId, t);
      try {
        await (await t.open?.writer)?.flush();
      } catch (error) {
        throw report(t, threadId, error);
      }
    },
    async release(threadId) {
      const t = thread(threadId);
      await t.running.catch(() => {});
      const writer = await t.open?.writer?.catch(() => undefined);
      t.open = undefined;
      await writer?.release();
    },
  };
}
