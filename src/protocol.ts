/**
 * The backend protocol: what the ADK-shaped front (in-thread or on the page)
 * asks of the store engine (in-thread or in a worker). Every value here is
 * structured-clone safe. Appends carry only the session key, the revision the
 * caller last saw and the events — never the session's history.
 */
import type { WireError } from './errors.js';
import type {
  AppStateRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  Event,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  Session,
  UserStateRequest,
} from './types.js';

/** Which stored incarnation of a session an object came from, and at which revision. */
export interface SessionRef {
  uid: string;
  revision: number;
}

export interface LoadedSession {
  session: Session;
  ref: SessionRef;
}

export interface ListedSessions extends ListSessionsResponse {
  refs: SessionRef[];
}

export interface AppendBatch {
  appName: string;
  userId: string;
  sessionId: string;
  /** The revision the caller's session object is at; `null` when unknown (then `lastUpdateTime` decides). */
  ref: SessionRef | null;
  lastUpdateTime: number;
  /** Already validated, `temp:` keys already removed from their `stateDelta`. */
  events: Event[];
  durability?: Durability;
}

export interface AppendOutcome {
  ref: SessionRef;
  lastUpdateTime: number;
  /** One entry per event of the batch: `null` when stored, else why it was not. */
  results: (WireError | null)[];
}

/** A committed change, told to subscribers in this tab and others. */
export interface StoreChange {
  type: 'created' | 'appended' | 'deleted';
  appName: string;
  userId: string;
  sessionId: string;
  /** The session's revision after the change (0 for a new session, -1 once deleted). */
  revision: number;
  lastUpdateTime: number;
  /** Ids of the events the change stored (appends only). */
  eventIds: string[];
}

/** What the front needs from an engine. Implemented by `StoreEngine`, and by a Comlink proxy of one. */
export interface Backend {
  createSession(request: CreateSessionRequest): Promise<LoadedSession>;
  getSession(request: GetSessionRequest): Promise<LoadedSession | undefined>;
  listSessions(request: ListSessionsRequest): Promise<ListedSessions>;
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  appendEvents(batch: AppendBatch): Promise<AppendOutcome>;
  getUserState(request: UserStateRequest): Promise<Record<string, unknown>>;
  getAppState(request: AppStateRequest): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
