/**
 * Live queries: a value from the store kept current with every committed
 * change, from this tab and others, delivered frozen, and ended with a
 * `'closed'` snapshot when the store closes. Framework-free: the React hooks
 * (`idb-adk-sessions/react`) are built on them, and each query is also a
 * Svelte store and an interop Observable (RxJS `from`, Vue, Angular, Solid).
 *
 * @example
 * ```ts
 * const stop = watchSession(store, { appName: 'chat', userId: 'ada', sessionId: 'today' })
 *   .watch((session) => render(session), (error) => show(error));
 * ```
 */

import { InvalidInputError } from '../core/errors.js';
import type { Draft } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';
import type {
  AppStateRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
  UserStateRequest,
} from '../types.js';
import { type LiveDraftStore, LiveDrafts } from './drafts.js';
import { liveAppState, liveSessions, liveUserState } from './listing.js';
import { LiveSession } from './session.js';
import { LiveSessionDrafts, type SessionWithDrafts } from './session-drafts.js';
import type { LiveOptions, LiveQuery, LiveStore } from './types.js';

export type { LiveDraftStore } from './drafts.js';
export type { SessionWithDrafts } from './session-drafts.js';
export type {
  LiveObservable,
  LiveObserver,
  LiveOptions,
  LiveQuery,
  LiveSnapshot,
  LiveStore,
  LiveUnsubscribe,
} from './types.js';

/** `watchSession`'s options: the live options, and whether the session's drafts come with it. */
export interface WatchSessionOptions extends LiveOptions {
  /**
   * Delivers the session's drafts beside its events (`SessionWithDrafts`), in one query: a draft
   * grows as its reply streams, turns `interrupted` when its writer dies, and a finished one leaves
   * in the same value its event arrives in. The store needs `drafts` (any from `openSessionStore`).
   */
  drafts?: boolean;
}

/**
 * One session (`undefined` while it does not exist), with `config`'s event filters kept as it
 * grows, and its drafts beside its events (`SessionWithDrafts`): a finished draft leaves in the
 * value its event arrives in. Throws `InvalidInputError` for a store without `drafts`.
 */
export function watchSession(
  store: LiveStore & LiveDraftStore,
  request: GetSessionRequest,
  options: WatchSessionOptions & { drafts: true },
): LiveQuery<SessionWithDrafts | undefined>;
/** One session (`undefined` while it does not exist), with `config`'s event filters kept as it grows. */
export function watchSession(
  store: LiveStore,
  request: GetSessionRequest,
  options?: WatchSessionOptions & { drafts?: false },
): LiveQuery<Session | undefined>;
/** One session, with its drafts when `options.drafts` is true at run time (see the overloads above). */
export function watchSession(
  store: LiveStore,
  request: GetSessionRequest,
  options?: WatchSessionOptions,
): LiveQuery<Session | SessionWithDrafts | undefined>;
export function watchSession(
  store: LiveStore,
  request: GetSessionRequest,
  options?: WatchSessionOptions,
): LiveQuery<Session | undefined> | LiveQuery<SessionWithDrafts | undefined> {
  const { config, ...key } = request;
  const copied = { ...key, ...(config ? { config: { ...config } } : {}) };
  const { drafts, ...live } = options ?? {};
  if (!drafts) return new LiveSession(store, copied, live);
  if (!(store as Partial<LiveDraftStore>).drafts) {
    throw new InvalidInputError('watchSession: drafts: the store has no `drafts`: use a store from openSessionStore');
  }
  return new LiveSessionDrafts(store as LiveStore & LiveDraftStore, copied, live);
}

/** One page of `listSessions`, as asked (`limit`, `offset` or `page`, `order`). */
export function watchSessions(
  store: LiveStore,
  request: ListSessionsRequest,
  options?: LiveOptions,
): LiveQuery<ListSessionsResponse> {
  return liveSessions(store, { ...request }, options);
}

/** A user's state, keys without the `user:` prefix. */
export function watchUserState(
  store: LiveStore,
  request: UserStateRequest,
  options?: LiveOptions,
): LiveQuery<Record<string, unknown>> {
  return liveUserState(store, request, options);
}

/** An app's state, keys without the `app:` prefix. */
export function watchAppState(
  store: LiveStore,
  request: AppStateRequest,
  options?: LiveOptions,
): LiveQuery<Record<string, unknown>> {
  return liveAppState(store, request, options);
}

/**
 * A session's drafts (`store.drafts.list`), oldest first: each grows as its reply streams in
 * another tab, turns `interrupted` when that tab dies, and is gone once finished (its event is
 * then in `watchSession`'s value) or dropped.
 */
export function watchDrafts(store: LiveDraftStore, request: SessionKey, options?: LiveOptions): LiveQuery<Draft[]> {
  const { appName, userId, sessionId } = request;
  return new LiveDrafts(store, { appName, userId, sessionId }, options);
}
