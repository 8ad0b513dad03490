/**
 * Hooks over live queries, through `useSyncExternalStore`: a component renders
 * when its value changes and at no other time, never shows a torn value under
 * concurrent rendering, and releases its query when it unmounts.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { type Appender, type AppenderOptions, createAppender } from '../live/appender.js';
import { watchAppState, watchSession, watchSessions, watchUserState } from '../live/index.js';
import type { LiveOptions, LiveQuery, LiveSnapshot } from '../live/types.js';
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

/**
 * One query per store and request *value*: a request written inline (a new
 * object each render) must not restart the query on every render.
 */
function useLive<R, T>(
  watch: (store: ReactStore, request: R, options?: LiveOptions) => LiveQuery<T>,
  request: R,
  options: LiveOptions | undefined,
): LiveSnapshot<T> {
  const store = useSessionStore();
  const key = JSON.stringify([request, options?.coalesceMs]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the request's value.
  const query = useMemo(() => watch(store, request, options), [store, key, watch]);
  return useSyncExternalStore(query.subscribe, query.getSnapshot, query.getSnapshot);
}

/** A session, kept current: `value` is `undefined` while loading and when it does not exist (`status` tells which). */
export function useSession(request: GetSessionRequest, options?: LiveOptions): LiveSnapshot<Session | undefined> {
  return useLive(watchSession, request, options);
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
