/**
 * `idb-adk-sessions/ai-sdk/react`: a stored chat for `useChat`, by id, inside
 * React. `useStoredChat` gives the chat's messages (files as `data:` URLs),
 * kept current with every tab through the store's live session, its title,
 * and the transport and `onFinish` that store what is typed and answered;
 * `useChatInStep` hands another tab's messages to a `useChat` while it is not
 * mid-turn. A reply streaming in another tab shows as it grows, and one left
 * interrupted by a closed tab or a reload shows cut off, to keep, drop or
 * resume (see `replyDraftOf`). Needs React and the types of `ai`; not `@ai-sdk/react` itself.
 *
 * @example
 * ```ts
 * const stored = useStoredChat({ appName: 'chat', userId: 'ada', sessionId: chatId }, { transport });
 * const chat = useChat({ id: stored.id, transport: stored.transport, onFinish: stored.onFinish });
 * useChatInStep(stored, chat);
 * ```
 */
import type { ChatTransport, UIMessage } from 'ai';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Draft } from '../index.js';
import { useSessionStore } from '../react/context.js';
import { useDrafts, useSession } from '../react/hooks.js';
import type { Event, SessionKey } from '../types.js';
import { inStep } from './in-step.js';
import { messageIdOf } from './messages.js';
import {
  type ChatBranch,
  type ChatPersistence,
  type ChatPersistenceOptions,
  type ChatStore,
  persistChat,
} from './persistence.js';
import { draftMessageId } from './streaming.js';
import { chatTitle, defaultTitle } from './title.js';

/** What `useStoredChat` takes: `persistChat`'s options and the transport requests go through. */
export interface StoredChatOptions<M extends UIMessage = UIMessage> extends ChatPersistenceOptions<M> {
  /**
   * The transport requests go through (`DefaultChatTransport`, say). Read when
   * a request is sent, so a new object on each render is fine.
   */
  transport: ChatTransport<M>;
}

/** A chat as stored, for `useChat` and `useChatInStep`. */
export interface StoredChat<M extends UIMessage = UIMessage> {
  /** The chat's id (the session's): `useChat({ id })`. */
  id: string;
  /**
   * `'loading'` until the stored messages are read, with their files; `'error'`
   * also once the store is closed (a `StoreClosedError`).
   */
  status: 'loading' | 'ready' | 'error';
  /** Why `status` is `'error'`; `undefined` otherwise. */
  error: Error | undefined;
  /**
   * The stored messages, files as `data:` URLs, current with every tab's
   * changes; `[]` while loading and for a chat nothing was sent in yet. A reply
   * being streamed (in any tab) or left interrupted is among them, as far as it
   * was stored, marked in its metadata (`replyDraftOf`), never beside the message it becomes.
   */
  messages: M[];
  /** The title `persistChat` keeps in the session's state (`chatTitle`), once it has one. */
  title: string | undefined;
  /** `useChat({ transport })`: stores each user message before its request goes out. Stable for the chat. */
  transport: ChatTransport<M>;
  /** `useChat({ onFinish })`: stores the finished reply. Stable for the chat. */
  onFinish: (event: { message: M }) => Promise<void>;
  /** The chat's `persistChat`, to save a message yourself (a tool result added outside a turn, say). */
  persistence: ChatPersistence<M>;
  /**
   * The shown messages that have alternatives (edited, or regenerated replies), by message id:
   * how many, and which is shown. Current with every tab.
   */
  branches: ReadonlyMap<string, ChatBranch>;
  /** Shows alternative `index` of message `messageId`, in every tab (`persistChat`'s `switchBranch`). */
  switchBranch(messageId: string, index: number): Promise<void>;
  /**
   * The ids of every message the session holds, alternatives not shown included, and of every
   * reply draft seen (for `useChatInStep`: a dropped reply leaves the chat).
   */
  storedIds: ReadonlySet<string>;
  /** Keeps an interrupted reply as a message, cut off (`persistChat`'s `keepDraft`). */
  keepDraft(draftId: string): Promise<void>;
  /** Drops a reply's draft, interrupted or not (`persistChat`'s `dropDraft`). */
  dropDraft(draftId: string): Promise<boolean>;
}

/** What `useChatInStep` needs of `useChat`'s result. */
export interface ChatInStep<M extends UIMessage = UIMessage> {
  /** The chat's id. */
  readonly id: string;
  /** The chat's messages as `useChat` holds them. */
  readonly messages: M[];
  /** `useChat`'s status (`'ready'`, `'submitted'`, `'streaming'`, `'error'`). */
  readonly status: string;
  /** `useChat`'s `setMessages`. */
  setMessages(messages: M[]): void;
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * The chat `key` names, from the store of the nearest `SessionStoreProvider`
 * (an `openSessionStore` store). The session is created by the first message
 * stored, so opening a chat that is never used leaves nothing behind.
 */
export function useStoredChat<M extends UIMessage = UIMessage>(
  key: SessionKey,
  options: StoredChatOptions<M>,
): StoredChat<M> {
  const store = useSessionStore() as ReturnType<typeof useSessionStore> & ChatStore;
  const { appName, userId, sessionId } = key;
  const { transport, files, author, title, attempts } = options;
  const latest = useRef({ transport, title });
  latest.current = { transport, title };
  const chat = useMemo(() => {
    const persistence = persistChat<M>(
      store,
      { appName, userId, sessionId },
      {
        ...(files === undefined ? {} : { files }),
        ...(author === undefined ? {} : { author }),
        ...(attempts === undefined ? {} : { attempts }),
        // The latest render's title function, read when the first message is stored.
        title: (message) => {
          const make = latest.current.title;
          return make === false ? undefined : (make ?? defaultTitle)(message);
        },
      },
    );
    const forward: ChatTransport<M> = {
      sendMessages: (request) => latest.current.transport.sendMessages(request),
      reconnectToStream: (request) => latest.current.transport.reconnectToStream(request),
    };
    return { persistence, transport: persistence.transport(forward) };
  }, [store, appName, userId, sessionId, files, author, attempts]);

  const live = useSession({ appName, userId, sessionId });
  // Only when they change: the drafts shown are read after the events (see `read` below).
  const drafts = useDrafts({ appName, userId, sessionId });
  // The message ids of every reply draft this chat has shown, and of those the last read showed.
  const drafted = useRef({ for: chat.persistence, ids: new Set<string>(), showing: new Set<string>() });
  if (drafted.current.for !== chat.persistence) {
    drafted.current = { for: chat.persistence, ids: new Set(), showing: new Set() };
  }
  // The messages with the events they were read from: the ids `useChatInStep` treats as stored
  // must come from the same snapshot as the messages, or a message just stored would read as
  // stored (in the newer events) but be missing from the older messages, and be dropped.
  const [read, setRead] = useState<
    { for: ChatPersistence<M>; messages: M[]; events: readonly Event[] } | { for: ChatPersistence<M>; error: Error }
  >();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `drafts.value` changing is what calls for a read.
  useEffect(() => {
    if (live.status !== 'ready' || drafts.status === 'loading') return;
    let current = true;
    const seen = drafted.current;
    const key = { appName, userId, sessionId };
    const list = () => (store.drafts ? store.drafts.list(key) : Promise.resolve([]));
    const readAll = async () => {
      let events = live.value?.events ?? EMPTY;
      // Drafts read after the events they go with: one still there was not finished when the
      // events were read, so a reply is never shown both as a draft and as its message.
      let found: readonly Draft[] = await list();
      const ids = new Set(events.map(messageIdOf));
      const gone = [...seen.showing].some((id) => !ids.has(id) && !found.some((d) => draftMessageId(d) === id));
      if (gone) {
        // A draft finished (or dropped) since the events were read: read them again, so its
        // reply is not missing until the live session catches up.
        events = (await store.getSession(key))?.events ?? EMPTY;
        found = await list();
      }
      seen.showing = new Set(found.map((draft) => draftMessageId(draft) ?? draft.id));
      for (const id of seen.showing) seen.ids.add(id);
      return { events, messages: await chat.persistence.messages(events, found) };
    };
    readAll().then(
      ({ events, messages }) => current && setRead({ for: chat.persistence, messages, events }),
      (error: unknown) => current && setRead({ for: chat.persistence, error: asError(error) }),
    );
    return () => {
      current = false;
    };
  }, [live.status, live.value, drafts.status, drafts.value, chat.persistence, store, appName, userId, sessionId]);

  // What was read for another chat (the id just changed) is not this chat's.
  const mine = read?.for === chat.persistence ? read : undefined;
  // A closed store (its `StoreClosedError`) ends the chat as a failed read does.
  const failed = live.status === 'error' || live.status === 'closed';
  const error = failed ? asError(live.error) : mine && 'error' in mine ? mine.error : undefined;
  const messages = mine && 'messages' in mine ? mine.messages : EMPTY;
  const events = mine && 'events' in mine ? mine.events : EMPTY;
  const branches = useMemo(() => chat.persistence.branches(events), [chat.persistence, events]);
  const storedIds = useMemo(() => new Set([...events.map(messageIdOf), ...drafted.current.ids]), [events]);
  return {
    id: sessionId,
    status: error ? 'error' : mine ? 'ready' : 'loading',
    error,
    messages: messages as M[],
    title: live.value ? chatTitle(live.value) : undefined,
    transport: chat.transport,
    onFinish: chat.persistence.onFinish,
    persistence: chat.persistence,
    branches,
    switchBranch: chat.persistence.switchBranch,
    storedIds,
    keepDraft: chat.persistence.keepDraft,
    dropDraft: chat.persistence.dropDraft,
  };
}

const EMPTY: never[] = [];

/**
 * Keeps `chat` (what `useChat` returned) showing `stored`'s messages: the
 * stored chat once loaded, then each message another tab stores. Applied only
 * while `chat` is not mid-turn (`submitted`, `streaming`), so a reply being
 * streamed here is never replaced; and messages this tab holds that the store
 * has not yet (its own, an instant before they are stored) are kept, after the stored ones.
 */
export function useChatInStep<M extends UIMessage>(stored: StoredChat<M>, chat: ChatInStep<M>): void {
  const { id, status, messages, setMessages } = chat;
  useEffect(() => {
    if (stored.status !== 'ready' || stored.id !== id || status === 'submitted' || status === 'streaming') return;
    const next = inStep(stored.messages, messages, stored.storedIds);
    if (next !== messages) setMessages(next);
  }, [stored.status, stored.id, stored.messages, stored.storedIds, id, status, messages, setMessages]);
}
