/**
 * Drafts' public data types: a reply being written as it streams, stored as it
 * grows and turned into its final event at the end. Plain declarations; this
 * module imports nothing but the session types.
 */
import type { Content, Event, Session, SessionKey } from './sessions.js';

/**
 * What one `append` adds to a draft. `text` continues the answer and `thought`
 * the reasoning (each extends its last part, or starts a new part after a part
 * of another kind); `parts` are added whole (a function call, a file).
 */
export interface DraftDelta {
  /** More of the answer's text. */
  text?: string;
  /** More of the model's reasoning (a part with `thought: true`). */
  thought?: string;
  /** Whole parts, added after what is there. */
  parts?: Content['parts'];
}

/** A draft as stored: what a reader (another tab, the inspector, the app after a reload) sees. */
export interface Draft {
  /** The draft's id (given to `begin`, or made there); the final event gets it too unless it has its own. */
  id: string;
  /** The session's app. */
  appName: string;
  /** The session's user. */
  userId: string;
  /** The session the reply belongs to. */
  sessionId: string;
  /** The final event's author. */
  author: string;
  /** The final event's invocation. */
  invocationId?: string;
  /** The final event's branch (ADK's agent path). */
  branch?: string;
  /** What `begin` was given to keep with the draft (an AI SDK message id, say). */
  customMetadata?: Record<string, unknown>;
  /** What was written so far, role `'model'`. */
  content: Content;
  /** When it was begun (epoch ms). */
  startedAt: number;
  /** When its last write was stored (epoch ms); `startedAt` before any. */
  updatedAt: number;
  /**
   * No writer holds it any more: the tab that streamed it closed, crashed or
   * reloaded before finishing. Keep it (`drafts.keep`), continue it
   * (`drafts.resume`) or drop it (`drafts.drop`).
   */
  interrupted: boolean;
  /**
   * Set by live queries (`watchDrafts`, `watchSession` with `drafts: true`) when `content` holds
   * text its writer, in another tab or this one, has appended and not stored yet. Such text is
   * not durable: if the writer dies before storing it, the draft shows what was stored, without it.
   */
  previewed?: true;
}

/** `drafts.begin`: a draft for the reply about to stream into `session`. */
export interface BeginDraftRequest {
  /** The session the reply belongs to: `finish` appends the final event to it, as `appendEvent` does. */
  session: Session;
  /** Default `'model'`. */
  author?: string;
  /** The final event's invocation. */
  invocationId?: string;
  /** The final event's branch (ADK's agent path). */
  branch?: string;
  /** The draft's id; default a fresh one. */
  id?: string;
  /** JSON values kept with the draft and handed to readers. */
  customMetadata?: Record<string, unknown>;
  /**
   * How much of the stream a crash may lose, in ms: appends are written together
   * at most this long after the first of them. Default 250; 0 writes every append.
   */
  maxLossMs?: number;
}

/** `drafts.resume`: take over an interrupted draft and continue it. */
export interface ResumeDraftRequest {
  /** The session the draft belongs to: `finish` appends to it. */
  session: Session;
  /** The draft to take over. */
  draftId: string;
  /** As `BeginDraftRequest.maxLossMs`. */
  maxLossMs?: number;
}

/** Names one draft of a session. */
export interface DraftRequest extends SessionKey {
  /** The draft's id. */
  draftId: string;
}

/** `DraftWriter.finish`: how the final event is made. */
export interface FinishDraftOptions {
  /**
   * The final event as the app (or ADK's Runner) made it; stored as given, in
   * place of the draft. Default: an event of the draft's author, invocation,
   * branch and content, with the draft's id.
   */
  event?: Event;
  /** Marks the default event `interrupted: true`: a reply that was cut off (what `drafts.keep` does). */
  interrupted?: boolean;
  /** Appends to this session object in place of the one `begin` was given (a fresh copy after a `StaleSessionError`). */
  session?: Session;
}

/**
 * The writer of one draft, in the tab that streams it. `append` never waits:
 * appends are written together (see `maxLossMs`); `finish` turns the draft into
 * its final event in one transaction.
 */
export interface DraftWriter {
  /** The draft's id, and the default final event's. */
  readonly id: string;
  /** What was appended so far, written or not. */
  readonly content: Content;
  /** Why the last write failed (a full disk, a closed store); the appends it held are kept and written with the next. */
  readonly error: Error | undefined;
  /**
   * Adds to the draft. Throws `InvalidInputError` once the draft is finished or dropped, and for a
   * delta no write could hold (not JSON, or larger than `MAX_RECORD_SIZE`), which is left out.
   */
  append(delta: DraftDelta): void;
  /** Writes what was appended and not yet written; rejects with the write's typed error. */
  flush(): Promise<void>;
  /**
   * Appends the final event to the session and removes the draft, in one
   * transaction (the event, its state delta, the draft gone: all or nothing), and
   * updates the session object in place as `appendEvent` does. Resolves the event.
   * On failure (`StaleSessionError`, say) the draft stays and `finish` may be called again.
   */
  finish(options?: FinishDraftOptions): Promise<Event>;
  /** Removes the draft; nothing of it becomes an event. */
  abandon(): Promise<void>;
  /**
   * Writes what is pending, then lets the draft go unfinished: it reads as interrupted, as if this
   * tab had closed, for anyone to keep, resume or drop.
   */
  release(): Promise<void>;
}

/**
 * Replies stored as they stream: `store.drafts`. A draft is never an event:
 * reads of the session, search, memory, export and sync see only the final
 * event `finish` stores.
 */
export interface DraftsFront {
  /**
   * Begins a draft for the reply about to stream into `session`. Rejects with
   * `SessionNotFoundError`, `AlreadyExistsError` (the id is taken), or
   * `InvalidInputError` (bad input, or the session already holds its most drafts).
   */
  begin(request: BeginDraftRequest): Promise<DraftWriter>;
  /** The session's drafts, oldest first; `interrupted` ones were left by a writer that is gone. */
  list(request: SessionKey): Promise<Draft[]>;
  /**
   * Takes over an interrupted draft to continue it: the writer starts from what
   * was stored. Rejects with `DraftInUseError` while its writer lives, `DraftNotFoundError` once it is gone.
   */
  resume(request: ResumeDraftRequest): Promise<DraftWriter>;
  /**
   * Keeps an interrupted draft as what it is: a reply cut off, stored as an event
   * marked `interrupted: true` (its text as far as it got), the draft removed in
   * the same transaction. Resolves the event.
   */
  keep(request: { session: Session; draftId: string }): Promise<Event>;
  /** Removes a draft, interrupted or not; resolves whether there was one. */
  drop(request: DraftRequest): Promise<boolean>;
  /**
   * Resolves once no tab is writing the draft: its writer finished, abandoned it,
   * or died (the tab closed or crashed). Never resolves where there are no Web
   * Locks to tell (Node); `signal` withdraws the wait.
   */
  untilWriterGone(request: DraftRequest, signal: AbortSignal): Promise<void>;
}
