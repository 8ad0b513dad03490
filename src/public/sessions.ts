/**
 * The session service's public data types, in the shapes of Google ADK's TypeScript edition
 * (`@google/adk` 2.x): camelCase fields, times in epoch milliseconds. Plain declarations, so
 * editors and generated docs show these names; the zod schemas in `schema.ts` are the runtime
 * check, and test/types/named-types.test-d.ts proves each schema and its type agree.
 *
 * The types that were once inferred from a schema are object type aliases, not interfaces: like
 * the inferred types, they stay assignable to `Record<string, unknown>`, so users' code compiles
 * as before. This module imports nothing: every layer may depend on it.
 */

/**
 * One part of a message: text, a function call or its response, inline data or a file
 * reference (ADK's `Part`, from `@google/genai`). A part normally holds one of these; parts of a
 * kind not listed here are stored and returned unchanged.
 */
export type Part = {
  /** Text the author wrote or the model produced. */
  text?: string;
  /** Whether `text` is the model's reasoning ("thought") rather than its answer. */
  thought?: boolean;
  /** A call the model asks the agent to make to one of its tools. */
  functionCall?: {
    /** Pairs the call with its `functionResponse`; ADK sets it. */
    id?: string;
    /** The tool's name. */
    name?: string;
    /** The arguments, as the model gave them. */
    args?: Record<string, unknown>;
  };
  /** What a tool returned for a `functionCall`. */
  functionResponse?: {
    /** The `id` of the call this answers. */
    id?: string;
    /** The tool's name. */
    name?: string;
    /** The tool's result. */
    response?: Record<string, unknown>;
  };
  /** Bytes carried in the message itself. */
  inlineData?: {
    /** Their MIME type, such as `image/png`. */
    mimeType?: string;
    /** The bytes, base64-encoded. */
    data?: string;
  };
  /** A file the message refers to by URI instead of carrying it. */
  fileData?: {
    /** Its MIME type. */
    mimeType?: string;
    /** Where it is. */
    fileUri?: string;
  };
};

/** A message (ADK's `Content`): who wrote it and what it holds. */
export type Content = {
  /** `'user'` or `'model'` in ADK; any string is kept. */
  role?: string;
  /** The message's parts, in order. */
  parts?: Part[];
};

/**
 * What an event does besides its content (ADK's `EventActions`). ADK's own type makes the four
 * records required; here every field is optional, and an absent record means an empty one.
 */
export type EventActions = {
  /**
   * The state changes the event makes, applied when it is appended: each key replaces the old
   * value (no deep merge; `null` is stored, it does not delete). The key's prefix picks the scope:
   * `app:` every session of the app, `user:` every session of the user, `temp:` this invocation
   * only (never stored), none this session. The only way state changes.
   */
  stateDelta?: Record<string, unknown>;
  /** The artifacts the event saved: filename to the version it wrote. */
  artifactDelta?: Record<string, number>;
  /** Auth configurations a tool asked for, by function call id (ADK's `AuthConfig`s, kept as given). */
  requestedAuthConfigs?: Record<string, unknown>;
  /** Confirmations a tool asked the user for, by function call id (ADK's `ToolConfirmation`s, kept as given). */
  requestedToolConfirmations?: Record<string, unknown>;
  /** The agent the conversation is handed to next. */
  transferToAgent?: string;
  /** Whether the agent hands control back up to its parent agent. */
  escalate?: boolean;
  /** Whether a function response is passed on as it is, without asking the model to summarise it. */
  skipSummarization?: boolean;
  /** Whether the agent has finished its part of this invocation. */
  endOfAgent?: boolean;
  /** adk-python's compaction: this event summarises the events of a span of time (see `EventCompaction`). */
  compaction?: EventCompaction;
  /**
   * Set only on a rewind event (see `SessionStore.rewind`): the invocation it undoes, with every
   * event from that invocation's first on. `withoutRewound` leaves them out.
   */
  rewindBeforeInvocationId?: string;
};

/**
 * adk-python's `EventCompaction` (`actions.compaction`), in the camelCase JSON ADK's TypeScript
 * edition reads it as: a summary standing in for the events from `startTimestamp` to
 * `endTimestamp`. Times are adk-python's, in seconds.
 */
export type EventCompaction = {
  /** The timestamp of the first event summarised, in seconds. */
  startTimestamp?: number;
  /** The timestamp of the last event summarised, in seconds. */
  endTimestamp?: number;
  /** The summary, as a message. */
  compactedContent?: Content;
};

/**
 * An ADK event: one step of a conversation (a user message, a model reply, a tool call or
 * response). Only `id` and `timestamp` are required here, where ADK's type also requires
 * `invocationId` and `actions`: the store takes any ADK event, and returns each event exactly as it
 * was appended, with every field, known or not, kept unchanged.
 */
export type Event = {
  /** Unique within its session; appending an event whose id is already stored replaces that event. */
  id: string;
  /** The invocation (one run of the agent for one user message) the event belongs to. */
  invocationId?: string;
  /** Who wrote the event: `'user'` or the agent's name. */
  author?: string;
  /**
   * When the event happened, in epoch milliseconds. Appending sets the session's `lastUpdateTime`
   * to it. Events are kept in append order, not sorted by it: several can share a millisecond.
   */
  timestamp: number;
  /** The message the event carries, if any. */
  content?: Content;
  /** What the event does besides its content: state changes, artifact versions, hand-offs. */
  actions?: EventActions;
  /**
   * A streamed fragment of a reply still being generated. `appendEvent` returns such an event as
   * it is and stores nothing (ADK's rule).
   */
  partial?: boolean;
  /** Whether the model's turn is complete (streaming). */
  turnComplete?: boolean;
  /** The path of agents that produced the event (`root.child.grandchild`), so sub-agents see only their own branch. */
  branch?: string;
  /** The ids of the function calls in this event that run long and answer later. */
  longRunningToolIds?: string[];
  /** The model's error code, when the response is an error. */
  errorCode?: string;
  /** The model's error message, when the response is an error. */
  errorMessage?: string;
  /** Whether the model's generation was interrupted (streaming). */
  interrupted?: boolean;
  /** The model's token counts for the response (`@google/genai`'s usage metadata), kept as given. */
  usageMetadata?: unknown;
  /** The model's grounding (sources, search queries) for the response, kept as given. */
  groundingMetadata?: unknown;
  /**
   * Whatever the app wants to keep with the event (JSON values). Keys starting `__adk_internal_`
   * are ADK's own: stored and returned by `getSession` (ADK reads them back), left out of exports
   * and of the AI SDK adapter's messages.
   */
  customMetadata?: Record<string, unknown>;
  /** adk-js's compaction (`CompactedEvent`): `true` on an event that summarises earlier events. */
  isCompacted?: boolean;
  /** adk-js's compaction: the timestamp of the first event summarised (epoch ms). */
  startTime?: number;
  /** adk-js's compaction: the timestamp of the last event summarised (epoch ms). */
  endTime?: number;
  /** adk-js's compaction: the summary's text. */
  compactedContent?: string;
  /** adk-js's compaction: whether this summary is the persistent scratchpad (`AnchoredContextCompactor`). */
  isScratchpad?: boolean;
};

/**
 * A conversation of one user with one app, and its state. Returned objects are copies: changing
 * one changes nothing stored. Sessions a live query delivers are frozen.
 */
export interface Session {
  /** Unique within its app and user; the same id under another user or app is another session. */
  id: string;
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /**
   * The merged view of the three scopes: the session's own keys, plus the app's keys as `app:k`
   * and the user's as `user:k`. Never holds `temp:` keys once stored.
   */
  state: Record<string, unknown>;
  /** The session's events in append order (empty in `listSessions` results; filtered by `GetSessionConfig`). */
  events: Event[];
  /** Epoch milliseconds: the creation time, then the `timestamp` of the last appended event. */
  lastUpdateTime: number;
}

/** Names one session: its app, its user and its id. */
export interface SessionKey {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /** The session's id. */
  sessionId: string;
}

/** `createSession` and `getOrCreateSession`. */
export type CreateSessionRequest = {
  /** The app (agent) the session belongs to. */
  appName: string;
  /** The user the session belongs to. */
  userId: string;
  /**
   * The initial state (JSON values). `app:` and `user:` keys go to the app's and the user's
   * state, as in an event's `stateDelta`.
   */
  state?: Record<string, unknown>;
  /** The id to give the session; `crypto.randomUUID()` when absent. One that exists for this app and user is refused. */
  sessionId?: string;
};

/** Which of a session's events `getSession` returns; the state is never filtered. */
export type GetSessionConfig = {
  /** Only the last n events (`0`: none); must not be negative. */
  numRecentEvents?: number;
  /** Only events with `timestamp >= afterTimestamp` (epoch ms, inclusive). With `numRecentEvents`: both filters apply. */
  afterTimestamp?: number;
  /**
   * Only what an agent's context needs after a compaction: the latest compaction event (adk-js's
   * `isCompacted: true`, or adk-python's `actions.compaction`), every event appended after it, and
   * the events appended before it whose `timestamp` is later than the span it covers (its `endTime`,
   * or `actions.compaction.endTimestamp` in seconds), other compaction events left out: the events
   * adk-js's context builder keeps of the whole session. All events when the session holds no
   * compaction. Only those events are read, so the cost follows what comes after the compaction,
   * not the session's length. With `numRecentEvents` or `afterTimestamp`: those filters apply to
   * what this one keeps.
   */
  fromLatestCompaction?: boolean;
};

/** `getSession`: the session's key, and which of its events to return. */
export interface GetSessionRequest extends SessionKey {
  /** Which events to return; all of them when absent. */
  config?: GetSessionConfig;
}

/** `listSessions`: an app's sessions, or one user's, in pages. */
export type ListSessionsRequest = {
  /** The app whose sessions to list. */
  appName: string;
  /** The user whose sessions to list; every user of the app when absent. */
  userId?: string;
  /** At most this many sessions (a page's size); all of them when absent. */
  limit?: number;
  /** How many sessions to skip first (ignored when `page` is given). */
  offset?: number;
  /** The 1-based page of `limit` sessions to return; needs `limit`. Beyond ADK's shapes. */
  page?: number;
  /**
   * By `lastUpdateTime`, ties by `id` ascending: `'asc'` oldest first, `'desc'` newest first.
   * Oldest first when absent.
   */
  order?: 'asc' | 'desc';
};

/** What `listSessions` returns: one page of sessions, with their state and without their events. */
export interface ListSessionsResponse {
  /** The sessions of this page, each with its merged state and `events: []`. */
  sessions: Session[];
  /** The page returned, 1-based. */
  page: number;
  /** The page size; equals `totalItems` when no limit was asked for. */
  limit: number;
  /** How many sessions match, over all pages. */
  totalItems: number;
  /** How many pages of `limit` sessions there are (1 without a limit; 0 when none match). */
  totalPages: number;
}

/** `rewind`: the session, and the first invocation to undo. */
export interface RewindRequest extends SessionKey {
  /** The invocation the session goes back to before: its first event, and every event after it, are undone. */
  beforeInvocationId: string;
}

/** One of the alternatives at a branch point. */
export interface Branch {
  /** The id of the alternative's first event (a user's message, say, or a reply). */
  eventId: string;
  /**
   * The invocation `rewind` goes back to before to make this alternative the current one again:
   * the invocation of the rewind that left it. `undefined` for the current alternative.
   */
  restoreBefore: string | undefined;
}

/** Where the conversation went on differently after the same events: its alternatives, oldest first. */
export interface BranchPoint {
  /** What followed the same conversation here, oldest first: at least two. */
  alternatives: readonly Branch[];
  /** Which of `alternatives` the current conversation holds. */
  current: number;
}

/** `switchBranch`: the session, and the first event of the alternative to make current. */
export interface SwitchBranchRequest extends SessionKey {
  /** An alternative's `eventId` (see `branchPoints`). */
  eventId: string;
}

/**
 * `erase`: the session, and the events whose content to erase: those `eventIds` names, and every
 * event of `invocationId`. At least one of the two must name something.
 */
export interface EraseRequest extends SessionKey {
  /** Ids of events of the session to erase. */
  eventIds?: string[];
  /** An invocation of the session: every event of it stored when the erase runs is erased. */
  invocationId?: string;
}

/** What `erase` did. */
export interface EraseResult {
  /** Every event the request named, in the session's order: all of them are erased now. */
  eventIds: string[];
  /** Those of them this call erased; the others were erased before (an empty list on a repeat). */
  erasedNow: string[];
}

/** `deleteSession`: the session to delete (deleting an unknown one does nothing). */
export type DeleteSessionRequest = SessionKey;

/**
 * When a write counts as done. `'strict'` waits until the write is flushed to disk;
 * `'relaxed'` until the browser has it (it survives a tab or browser crash, not a power cut);
 * `'default'` is the browser's choice.
 */
export type Durability = 'strict' | 'relaxed' | 'default';

/** `appendEvent`: the event, and the session it is appended to. */
export interface AppendEventRequest {
  /**
   * The session as last read or appended through. It is updated in place, as ADK requires: the
   * event goes into its `events`, the delta into its `state`, and its `lastUpdateTime` is set. If
   * the stored session changed since (another tab), the append is refused with a `StaleSessionError`.
   */
  session: Session;
  /** The event to store. A `partial` one is returned as is and not stored. */
  event: Event;
  /** Overrides the store's durability for this append. */
  durability?: Durability;
}

/** Several events for one session, stored together or not at all (`appendEvents`). */
export interface AppendEventsRequest {
  /** The session, updated in place as by `appendEvent`. */
  session: Session;
  /** The events, in order. */
  events: Event[];
  /** Overrides the store's durability for these appends. */
  durability?: Durability;
}

/** Names one user's state: the keys `user:` addresses. */
export interface UserStateRequest {
  /** The app. */
  appName: string;
  /** The user. */
  userId: string;
}

/** Names one app's state: the keys `app:` addresses. */
export interface AppStateRequest {
  /** The app. */
  appName: string;
}
