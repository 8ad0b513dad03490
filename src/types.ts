/**
 * The session service's method shapes. Its data types are declared, with TSDoc, in
 * `public/` (re-exported here); the zod schemas (`core/schema.ts` and each capability's
 * `schema.ts`) check them at run time.
 */
import type { AppSummary, ListUsersRequest, UserSummary } from './public/catalog.js';
import type {
  AppendEventRequest,
  AppStateRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  Event,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
  UserStateRequest,
} from './public/sessions.js';

export type { AppSummary, ListSessionKeysRequest, ListUsersRequest, UserSummary } from './public/catalog.js';
export type {
  AppendEventRequest,
  AppendEventsRequest,
  AppStateRequest,
  Branch,
  BranchPoint,
  Content,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  EventActions,
  EventCompaction,
  GetSessionConfig,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Part,
  RewindRequest,
  Session,
  SessionKey,
  SwitchBranchRequest,
  UserStateRequest,
} from './public/sessions.js';
export type { ConflictPolicy } from './public/transfer.js';

/** The ADK session-service method shapes, implemented in-thread and through a worker alike. */
export interface SessionService {
  /** Creates a session; an id that exists for the app and user is refused with `AlreadyExistsError`. */
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** The session (events filtered by `config`), or `undefined` when none has that key. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  /** The session with that key if one exists (`state` is then ignored), else a new one, as `createSession`. */
  getOrCreateSession(request: CreateSessionRequest): Promise<Session>;
  /** One page of an app's (or a user's) sessions, with their state and without their events. */
  listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;
  /** Deletes the session and its events; app and user state stay. Deleting an unknown session does nothing. */
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  /** Stores the event, applies its state delta, and updates `request.session` in place; resolves the event. */
  appendEvent(request: AppendEventRequest): Promise<Event>;
  /** The user scope's state, keys without the `user:` prefix. */
  getUserState(request: UserStateRequest): Promise<Record<string, unknown>>;
  /** The app scope's state, keys without the `app:` prefix. */
  getAppState(request: AppStateRequest): Promise<Record<string, unknown>>;
  /** Closes the store: later calls fail with `StoreClosedError`. */
  close(): Promise<void>;
}

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
