/**
 * Public data types, in ADK's shapes (package `@google/adk` 2.x): camelCase
 * fields, timestamps in epoch milliseconds. Boundary data types are inferred
 * from the zod schemas in `schema.ts`.
 */
import type * as z from 'zod/mini';
import type {
  conflictPolicySchema,
  contentSchema,
  createSessionRequestSchema,
  durabilitySchema,
  eventActionsSchema,
  eventShape,
  getSessionConfigSchema,
  listSessionKeysRequestSchema,
  listSessionsRequestSchema,
  listUsersRequestSchema,
  partSchema,
} from './core/schema.js';

/** One part of a message: text, a function call or response, inline data, ... */
export type Part = z.input<ReturnType<typeof partSchema>>;
/** A message: its role and parts. */
export type Content = z.input<ReturnType<typeof contentSchema>>;
/** What an event does besides its content; `stateDelta` is how state changes. */
export type EventActions = z.input<ReturnType<typeof eventActionsSchema>>;
/** An ADK event. Every field, known or not, is stored and returned unchanged. */
export type Event = z.input<ReturnType<typeof eventShape>>;

/** A conversation. `state` is the merged view: session keys plus `app:`/`user:` keys. */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: Event[];
  /** Epoch milliseconds: creation time, then the timestamp of the last appended event. */
  lastUpdateTime: number;
}

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

export type CreateSessionRequest = z.input<ReturnType<typeof createSessionRequestSchema>>;
export type GetSessionConfig = z.input<ReturnType<typeof getSessionConfigSchema>>;
export interface GetSessionRequest extends SessionKey {
  config?: GetSessionConfig;
}
export type ListSessionsRequest = z.input<ReturnType<typeof listSessionsRequestSchema>>;
export interface ListSessionsResponse {
  sessions: Session[];
  /** 1-based. */
  page: number;
  /** Equals `totalItems` when no limit was asked for. */
  limit: number;
  totalItems: number;
  totalPages: number;
}
export type DeleteSessionRequest = SessionKey;

/** Every app's sessions (nothing given), one app's, or one user's (`userId` needs `appName`). */
export type ListSessionKeysRequest = z.input<ReturnType<typeof listSessionKeysRequestSchema>>;

/**
 * What an import does with a session whose id already exists for its app and
 * user: `'error'` rejects the whole import with `AlreadyExistsError` (nothing is
 * imported), `'skip'` keeps the stored session, `'replace'` deletes it first.
 */
export type ConflictPolicy = z.input<ReturnType<typeof conflictPolicySchema>>;

/**
 * `'strict'` waits until the write is flushed to disk; `'relaxed'` until the
 * browser has it (it survives a tab or browser crash, not a power cut);
 * `'default'` is the browser's choice.
 */
export type Durability = z.input<ReturnType<typeof durabilitySchema>>;

export interface AppendEventRequest {
  session: Session;
  event: Event;
  /** Overrides the store's durability for this append. */
  durability?: Durability;
}

/** Several events for one session, stored together or not at all (`appendEvents`). */
export interface AppendEventsRequest {
  session: Session;
  events: Event[];
  /** Overrides the store's durability for these appends. */
  durability?: Durability;
}

export interface UserStateRequest {
  appName: string;
  userId: string;
}
export interface AppStateRequest {
  appName: string;
}

/** The ADK session-service method shapes, implemented in-thread and through a worker alike. */
export interface SessionService {
  createSession(request: CreateSessionRequest): Promise<Session>;
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  getOrCreateSession(request: CreateSessionRequest): Promise<Session>;
  listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  appendEvent(request: AppendEventRequest): Promise<Event>;
  /** The user scope's state, keys without the `user:` prefix. */
  getUserState(request: UserStateRequest): Promise<Record<string, unknown>>;
  /** The app scope's state, keys without the `app:` prefix. */
  getAppState(request: AppStateRequest): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** An app the store holds state or sessions for. */
export interface AppSummary {
  appName: string;
  /** Sessions the app has now, over all its users; 0 once they are all deleted (its app state remains). */
  sessionCount: number;
}

/** A user of an app. */
export interface UserSummary {
  appName: string;
  userId: string;
  /** Sessions the user has now in that app; 0 once they are all deleted (the user state remains). */
  sessionCount: number;
}

/** Users of one app, by `userId` ascending; `offset` and `limit` page through them. */
export type ListUsersRequest = z.input<ReturnType<typeof listUsersRequestSchema>>;

/**
 * Beyond ADK's shapes: what the store holds, for tools that browse it (the demo
 * inspector, admin pages). Reads the app and user records, never the sessions or events.
 */
export interface SessionCatalog {
  /** Every app, by `appName` ascending. */
  listApps(): Promise<AppSummary[]>;
  /** The users of one app, by `userId` ascending; one app's users never include another's. */
  listUsers(request: ListUsersRequest): Promise<UserSummary[]>;
}
