/**
 * The backend protocol: what the ADK-shaped front (in-thread or on the page)
 * asks of the store engine (in-thread or in a worker). Every value here is
 * structured-clone safe. Appends carry only the session key, the revision the
 * caller last saw and the events — never the session's history.
 */
import type { WireError } from '../core/errors.js';
import type { MethodTable } from '../core/methods.js';
import type { ImportResult as ImportOutcome } from '../public/transfer.js';
import type {
  AppStateRequest,
  AppSummary,
  ConflictPolicy,
  CreateSessionRequest,
  DeleteSessionRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  GetSessionRequest,
  ListSessionKeysRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  ListUsersRequest,
  RewindRequest,
  Session,
  SessionKey,
  UserStateRequest,
  UserSummary,
} from '../types.js';

/** Which stored incarnation of a session an object came from, and at which revision. */
export interface SessionRef {
  uid: string;
  revision: number;
}

export interface LoadedSession {
  session: Session;
  ref: SessionRef;
  /**
   * The events as the text of one JSON array, in place of `session.events`
   * (then empty): text crosses a worker boundary without a second structured clone.
   */
  eventsJson?: string;
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
  /**
   * Every event valid or none stored: one the boundary check refuses fails
   * them all, each with its error (otherwise each event fails alone).
   */
  allOrNothing?: true;
  /** The draft the batch's event finishes (src/drafts): removed in the transaction that stores the event. */
  finishesDraft?: string;
}

export interface AppendOutcome {
  /** The session's revision after the batch; the batch's own when none of its events was valid (nothing was read). */
  ref: SessionRef | null;
  lastUpdateTime: number;
  /** One entry per event of the batch: `null` when stored, else why it was not. */
  results: (WireError | null)[];
}

/** Whole sessions to write in one transaction: all of them, or (on any error) none. */
export interface ImportBatch {
  /** Already validated: merged state (split by prefix on write), events in append order. */
  sessions: Session[];
  onConflict: ConflictPolicy;
}

// Public as `ImportResult` (public/transfer.ts); the same type under the name the store's code uses.
export type { ImportOutcome };

/**
 * The backend's calls, by name, each with the position of its callback (see
 * `MethodTable`): what the worker host serves and a forwarding backend (lazy,
 * or over a worker) forwards.
 */
export const SESSION_METHODS = {
  createSession: 0,
  getSession: 0,
  listSessions: 0,
  deleteSession: 0,
  appendEvents: 0,
  listSessionKeys: 0,
  importSessions: 1,
  getUserState: 0,
  getAppState: 0,
  listApps: 0,
  listUsers: 0,
  sealInterrupted: 0,
  rewind: 0,
  erase: 0,
} as const satisfies MethodTable<Omit<Backend, 'close'>>;

/** What the front needs from an engine. Implemented by `StoreEngine`, and by a Comlink proxy of one. */
export interface Backend {
  createSession(request: CreateSessionRequest): Promise<LoadedSession>;
  getSession(request: GetSessionRequest): Promise<LoadedSession | undefined>;
  listSessions(request: ListSessionsRequest): Promise<ListedSessions>;
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  appendEvents(batch: AppendBatch): Promise<AppendOutcome>;
  /** Keys of the sessions asked for, in listing order (app, then oldest first), read in one snapshot. */
  listSessionKeys(request: ListSessionKeysRequest): Promise<SessionKey[]>;
  /**
   * Writes whole sessions in one transaction. An imported session gets a fresh
   * incarnation (revision 0); its `app:`/`user:` state is merged into the shared
   * scopes. Tells subscribers `created` per session (after `deleted` for one replaced).
   * `onProgress` hears how many sessions are done while the transaction runs
   * (a few dozen reports at most; over a worker, through a Comlink proxy).
   */
  importSessions(batch: ImportBatch, onProgress?: (processed: number) => void): Promise<ImportOutcome>;
  getUserState(request: UserStateRequest): Promise<Record<string, unknown>>;
  getAppState(request: AppStateRequest): Promise<Record<string, unknown>>;
  listApps(): Promise<AppSummary[]>;
  listUsers(request: ListUsersRequest): Promise<UserSummary[]>;
  /** Answers the last invocation's dangling function calls (sessions/seal.ts); resolves what it appended. */
  sealInterrupted(request: SessionKey): Promise<Event[]>;
  /** Appends the rewind event undoing `beforeInvocationId` and what followed (sessions/rewind.ts); resolves it. */
  rewind(request: RewindRequest): Promise<Event>;
  /** Erases the content of the events `request` names, in place (sessions/erase.ts); resolves what it erased. */
  erase(request: EraseRequest): Promise<EraseResult>;
  close(): Promise<void>;
}
