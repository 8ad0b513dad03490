/**
 * Hooks over live queries, through `useSyncExternalStore`: a component renders
 * when its value changes and at no other time, never shows a torn value under
 * concurrent rendering, and releases its query when it unmounts.
 */
import { useMemo, useSyncExternalStore } from 'react';
import {
  type Appender,
  type AppenderOptions,
  createAppender,
  type Draft,
  type LiveDraftStore,
  type LiveOptions,
  type LiveQuery,
  type LiveSnapshot,
  type SessionWithDrafts,
  type WatchSessionOptions,
  watchAppState,
  watchDrafts,
  watchSession,
  watchSessions,
  watchUserState,
} from '../index.js';
import type {
  AppStateRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
  SessionKey,
  UserStateRequest,
} from '../types.js';
import { type ReactStore, useSessionStore } from './context.js';

interface Shared {
  query: LiveQuery<unknown>;
  subscribe: (listener: () => void) => () => void;
  users: number;
}

type Watch<R, T> = (store: ReactStore, request: R, options?: LiveOptions) => LiveQuery<T>;

/** Queries in use, per store, kind (the watch function) and request value: components asking the same share one. */
const sharedQueries = new WeakMap<ReactStore, Map<Watch<never, unknown>, Map<string, Shared>>>();

/**
 * The query every component of `store` asking `key` shares. Dropped from the
 * registry a task after its last subscriber leaves (or if none ever came), so
 * strict mode's unmount-and-remount keeps it, and a component that still holds
 * a dropped one goes on using it alone.
 */
function sharedQuery<R, T>(store: ReactStore, watch: Watch<R, T>, key: string, create: () => LiveQuery<T>): Shared {
  let kinds = sharedQueries.get(store);
  if (!kinds) {
    kinds = new Map();
    sharedQueries.set(store, kinds);
  }
  let queries = kinds.get(watch as Watch<never, unknown>);
  if (!queries) {
    queries = new Map();
    kinds.set(watch as Watch<never, unknown>, queries);
  }
  const found = queries.get(key);
  if (found) return found;
  const query = create() as LiveQuery<unknown>;
  const dropIfUnused = (): void => {
    setTimeout(() => {
      if (shared.users === 0 && queries.get(key) === shared) queries.delete(key);
    }, 0);
  };
  const shared: Shared = {
    query,
    users: 0,
    subscribe: (listener) => {
      shared.users++;
      const unsubscribe = query.subscribe(listener);
      return () => {
        unsubscribe();
        if (--shared.users === 0) dropIfUnused();
      };
    },
  };
  queries.set(key, shared);
  dropIfUnused();
  return shared;
}

/**
 * One query per store and request *value*, shared by every component asking
 * the same: a request written inline (a new object each render) must not
 * restart the query on every render, and ten components showing one session
 * read it once per change, not ten times.
 */
function useLive<R, T>(watch: Watch<R, T>, request: R, options: LiveOptions | undefined): LiveSnapshot<T> {
  const store = useSessionStore();
  const key = JSON.stringify([request, options?.coalesceMs]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the request's value.
  const shared = useMemo(
    () => sharedQuery(store, watch, key, () => watch(store, request, options)),
    [store, key, watch],
  );
  const getSnapshot = shared.query.getSnapshot as () => LiveSnapshot<T>;
  return useSyncExternalStore(shared.subscribe, getSnapshot, getSnapshot);
}

const withDrafts = (kind: string): LiveDraftStore['drafts'] => {
  throw new TypeError(`${kind}: the provided store has no \`drafts\`: provide a store from openSessionStore`);
};

const watchSessionDrafts: Watch<GetSessionRequest, SessionWithDrafts | undefined> = (store, request, options) => {
  if (!(store as Partial<LiveDraftStore>).drafts) withDrafts('useSession');
  return watchSession(store as ReactStore & LiveDraftStore, request, { ...options, drafts: true });
};

/**
 * A session with its drafts beside its events (see `watchSession` with `drafts: true`), kept
 * current: a finished draft leaves in the render its event arrives in.
 */
export function useSession(
  request: GetSessionRequest,
  options: WatchSessionOptions & { drafts: true },
): LiveSnapshot<SessionWithDrafts | undefined>;
/**
 * A session, kept current: `value` is `undefined` while loading and when it does not exist (`status`
 * tells which), frozen otherwise; `status` is `'closed'` for good once the store is.
 */
export function useSession(
  request: GetSessionRequest,
  options?: WatchSessionOptions & { drafts?: false },
): LiveSnapshot<Session | undefined>;
/** A session, with its drafts when `options.drafts` is true at run time (see the overloads above). */
export function useSession(
  request: GetSessionRequest,
  options?: WatchSessionOptions,
): LiveSnapshot<Session | SessionWithDrafts | undefined>;
export function useSession(
  request: GetSessionRequest,
  options?: WatchSessionOptions,
): LiveSnapshot<Session | undefined> | LiveSnapshot<SessionWithDrafts | undefined> {
  const { drafts, ...live } = options ?? {};
  return useLive<GetSessionRequest, Session | undefined>(drafts ? watchSessionDrafts : watchSession, request, live);
}

/** A page of `listSessions`, kept current. */
export function useSessions(request: ListSessionsRequest, options?: LiveOptions): LiveSnapshot<ListSessionsResponse> {
  return useLive(watchSessions, request, options);
}

/** A user's state (keys without `user:`), kept current. */
export function useUserState(request: UserStateRequest, options?: LiveOptions): LiveSnapshot<Record<string, unknown>> {
  return useLive(watchUserState, request, options);
}

/** An app's state (keys without `app:`), kept current. */
export function useAppState(request: AppStateRequest, options?: LiveOptions): LiveSnapshot<Record<string, unknown>> {
  return useLive(watchAppState, request, options);
}

const watchStoredDrafts: Watch<SessionKey, Draft[]> = (store, request, options) => {
  if (!(store as Partial<LiveDraftStore>).drafts) withDrafts('useDrafts');
  return watchDrafts(store as ReactStore & LiveDraftStore, request, options);
};

/** A session's drafts (replies being streamed, or left interrupted), kept current (see `watchDrafts`). */
export function useDrafts(request: SessionKey, options?: LiveOptions): LiveSnapshot<Draft[]> {
  return useLive(watchStoredDrafts, request, options);
}

/**
 * A function that appends to a session, retrying when another tab moved it on
 * (see `createAppender`). Stable across renders for the same store and key.
 */
export function useAppendEvent(key: SessionKey, options?: AppenderOptions): Appender {
  const store = useSessionStore();
  const { appName, userId, sessionId } = key;
  const attempts = options?.attempts;
  return useMemo(
    () => createAppender(store, { appName, userId, sessionId }, attempts === undefined ? {} : { attempts }),
    [store, appName, userId, sessionId, attempts],
  );
}
