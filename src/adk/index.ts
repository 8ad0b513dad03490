/**
 * `idb-adk-sessions/adk`: the store as an ADK `BaseSessionService`, for apps
 * that bundle `@google/adk` and hand a session service to its `Runner`.
 *
 * This is the only module of the package that imports `@google/adk` at run
 * time (an optional peer dependency); the main entry uses its types only.
 */
import {
  type AppendEventRequest as AdkAppendEventRequest,
  type CreateSessionRequest as AdkCreateSessionRequest,
  type DeleteSessionRequest as AdkDeleteSessionRequest,
  type Event as AdkEvent,
  type GetSessionRequest as AdkGetSessionRequest,
  type ListSessionsRequest as AdkListSessionsRequest,
  type ListSessionsResponse as AdkListSessionsResponse,
  type Session as AdkSession,
  type BasePlugin,
  BaseSessionService,
} from '@google/adk';
import { withoutRewound } from '../index.js';
import type { Event, Session, SessionService } from '../types.js';

import { type DraftStore, DraftsPlugin, StreamingReplies } from './drafts.js';

export { AdkArtifactService, type AdkCompatibleArtifacts } from './artifacts.js';
export type { DraftStore } from './drafts.js';
export { type AdkCompatibleMemory, AdkMemoryService } from './memory.js';

/**
 * What the adapter needs: the ADK-shaped methods of an `IndexedDbSessionService`,
 * of the client `openSessionStore` or `connectSessionStore` returns, or of any
 * other object with the same shapes.
 */
export type AdkCompatibleStore = Pick<
  SessionService,
  'createSession' | 'getSession' | 'getOrCreateSession' | 'listSessions' | 'deleteSession' | 'appendEvent'
> &
  Partial<Pick<SessionService, 'close'>> &
  Partial<DraftStore>;

/** Options of `AdkSessionService`. */
export interface AdkSessionServiceOptions {
  /**
   * Serve ADK's `getSession` calls (the Runner's, at the start of every turn) with
   * `config.fromLatestCompaction` unless the call sets it: for agents with `contextCompactors`, whose
   * context starts at the latest compaction anyway, so a turn reads the events after it and not the
   * whole session. The agent's model requests are the same as with every event read. Off by default.
   */
  fromLatestCompaction?: boolean;
}

/**
 * An ADK session service backed by this store: every method is delegated, so the
 * store's rules apply (stale detection, inclusive `afterTimestamp`, typed errors,
 * `temp:` keys visible in the session object for the rest of the invocation). The
 * sessions it returns leave out what rewinds undid and the rewind events themselves
 * (`withoutRewound`), so the Runner's model never sees rewound turns; `@google/adk`
 * 2.0.0's Runner does not filter them itself.
 *
 * @example
 * ```ts
 * import { InMemoryRunner, LlmAgent, Runner } from '@google/adk';
 * import { openSessionStore } from 'idb-adk-sessions';
 * import { AdkSessionService } from 'idb-adk-sessions/adk';
 *
 * const sessionService = new AdkSessionService(openSessionStore({ dbName: 'my-agent' }));
 * const runner = new Runner({ appName: 'chat', agent, sessionService });
 * ```
 */
export class AdkSessionService extends BaseSessionService {
  private readonly replies: StreamingReplies | undefined;
  private plugin: DraftsPlugin | undefined;

  constructor(
    /** The store every method delegates to. */
    readonly store: AdkCompatibleStore,
    /** How ADK's reads are served; see `AdkSessionServiceOptions`. */
    readonly options: AdkSessionServiceOptions = {},
  ) {
    super();
    this.replies = store.drafts ? new StreamingReplies(store as DraftStore) : undefined;
  }

  /**
   * The Runner plugin that stores replies as they stream (`streamingMode: SSE`), each in a draft
   * (`store.drafts`) until its final event replaces it in one transaction; see docs/streaming.md.
   * Pass it in the Runner's `plugins`. Throws `TypeError` when the store has no `drafts`.
   */
  get draftsPlugin(): BasePlugin {
    if (!this.replies)
      throw new TypeError('AdkSessionService: the store has no `drafts`: pass a store from openSessionStore');
    this.plugin ??= new DraftsPlugin(this.replies);
    return this.plugin;
  }

  /** ADK's `createSession`: a new session; an id that exists for the app and user is refused with `AlreadyExistsError`. */
  async createSession(request: AdkCreateSessionRequest): Promise<AdkSession> {
    return asAdkSession(await this.store.createSession(request));
  }

  /** ADK's `getSession`: the session (events filtered by `config`), or `undefined`. */
  async getSession(request: AdkGetSessionRequest): Promise<AdkSession | undefined> {
    const config = { fromLatestCompaction: this.options.fromLatestCompaction, ...request.config };
    const session = await this.store.getSession(config.fromLatestCompaction ? { ...request, config } : request);
    return session && asAdkSession(session);
  }

  /** The store's own, which also settles a race between two creators of one id. */
  override async getOrCreateSession(request: AdkCreateSessionRequest): Promise<AdkSession> {
    return asAdkSession(await this.store.getOrCreateSession(request));
  }

  /** ADK's `listSessions`: the sessions with their state and without their events, in pages. */
  async listSessions(request: AdkListSessionsRequest): Promise<AdkListSessionsResponse> {
    const listed = await this.store.listSessions(request);
    return { ...listed, sessions: listed.sessions.map(asAdkSession) };
  }

  /** ADK's `deleteSession`: the session and its events; app and user state stay. */
  async deleteSession(request: AdkDeleteSessionRequest): Promise<void> {
    await this.store.deleteSession(request);
  }

  /**
   * Stores the event and updates `session` in place, as ADK's Runner requires.
   * Unlike ADK's base class, the store does the in-place update itself (only
   * after the write committed), so nothing is applied here.
   */
  override async appendEvent({ session, event }: AdkAppendEventRequest): Promise<AdkEvent> {
    // The final event of a reply that streamed into a draft replaces the draft in the same transaction.
    const draft = await this.replies?.take(session as Session, event as Event);
    // A reply ended by an error (ADK's error event, without content) is stored as ever, and what
    // streamed of it stays as an interrupted draft, to keep or drop.
    if (draft && event.errorCode !== undefined && !event.content?.parts?.length) await draft.release();
    else if (draft) return (await draft.finish({ event: event as Event, session: session as Session })) as AdkEvent;
    return (await this.store.appendEvent({ session: session as Session, event: event as Event })) as AdkEvent;
  }

  /** Closes the store, when it can be closed. */
  async close(): Promise<void> {
    await this.store.close?.();
  }
}

/**
 * ADK's `Event` requires `invocationId` and `actions` with its four maps; events
 * written without ADK (a chat UI appending through the main entry) may lack them.
 * Loaded sessions are copies, so filling them in (and leaving rewound events out)
 * changes nothing stored.
 */
function asAdkSession(session: Session): AdkSession {
  session.events = withoutRewound(session.events);
  for (const event of session.events) {
    event.invocationId ??= '';
    event.actions ??= {};
    const actions = event.actions;
    actions.stateDelta ??= {};
    actions.artifactDelta ??= {};
    actions.requestedAuthConfigs ??= {};
    actions.requestedToolConfirmations ??= {};
  }
  return session as AdkSession;
}
