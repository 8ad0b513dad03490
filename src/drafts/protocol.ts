/**
 * What the drafts front asks of an engine (in this thread, or in a worker behind
 * the host). A writer names itself (`writer`, the name of the lock it holds while
 * it lives) and numbers its writes (`seq`, from 1): a write is one new chunk
 * record, and a repeated write (a retry after a lost answer) replaces its own.
 */
import type { MethodTable } from '../core/methods.js';
import type { Draft, DraftDelta } from '../public/drafts.js';
import type { SessionKey } from '../public/sessions.js';

export interface DraftKeyRequest extends SessionKey {
  draftId: string;
}

export interface BeginDraft extends DraftKeyRequest {
  writer: string;
  author: string;
  invocationId?: string;
  branch?: string;
  customMetadata?: Record<string, unknown>;
}

export interface WriteDraft extends DraftKeyRequest {
  writer: string;
  seq: number;
  deltas: DraftDelta[];
  /** How many appends the draft holds with this write (since its writer began): what numbers a preview (preview.ts). */
  appends?: number;
}

/**
 * `readDraftTails`: the session's drafts, each draft named in `since` read from its chunk `seq`
 * on (the reader holds what came before) when it is still the draft begun at `startedAt`.
 */
export interface DraftTailsRequest extends SessionKey {
  since: { draftId: string; seq: number; startedAt: number }[];
}

/** One chunk as a reader folds it. */
export interface DraftChunk {
  seq: number;
  deltas: DraftDelta[];
}

/** A draft as a live reader gets it: its head, and its chunks (all, or from `from` on). */
export interface DraftTail {
  /** The draft, `content` left out: the chunks make it. */
  draft: Omit<Draft, 'content'>;
  /** The seq the chunks start at: 0 when they are all of them. */
  from: number;
  chunks: DraftChunk[];
  /** Its writer (the name part of the lock): a preview is from it or ignored. */
  writer: string;
  /** What the last chunk says of `WriteDraft.appends`. */
  appends?: number;
}

/** The drafts, and the session's stored revision read in the same transaction (-1: no session). */
export interface DraftTails {
  revision: number;
  drafts: DraftTail[];
}

export interface ClaimDraft extends DraftKeyRequest {
  writer: string;
}

/** A claimed draft, and the `seq` its next write takes. */
export interface ClaimedDraft {
  draft: Draft;
  nextSeq: number;
  /** The appends its last chunk holds through (`WriteDraft.appends`), where it says. */
  appends?: number;
}

export interface DraftBackend {
  /** Stores a new draft's head; resolves it as readers see it. */
  beginDraft(request: BeginDraft): Promise<Draft>;
  writeDraft(request: WriteDraft): Promise<void>;
  /** The session's drafts, oldest first. */
  readDrafts(request: SessionKey): Promise<Draft[]>;
  /** The session's drafts for a live reader, oldest first: only chunks it lacks (see `DraftTailsRequest`). */
  readDraftTails(request: DraftTailsRequest): Promise<DraftTails>;
  /** Makes `writer` the writer of an interrupted draft. */
  claimDraft(request: ClaimDraft): Promise<ClaimedDraft>;
  /** Removes a draft; resolves whether there was one. */
  dropDraft(request: DraftKeyRequest): Promise<boolean>;
}

/**
 * What a live reader (src/live) needs of `store.drafts` beyond its public methods, under a key of
 * its own: not a part of the public surface, and found by any copy of the library in the realm.
 */
export const DRAFTS_LIVE: unique symbol = Symbol.for('idb-adk-sessions.drafts-live') as never;

export interface DraftsLive {
  readTails(request: DraftTailsRequest): Promise<DraftTails>;
  /** The database's name: where previews are posted (preview.ts). */
  readonly dbName: string | Promise<string>;
}

/** The calls, by name (see `MethodTable`): what the host serves and a forwarding backend forwards. */
export const DRAFT_METHODS = {
  beginDraft: 0,
  writeDraft: 0,
  readDrafts: 0,
  readDraftTails: 0,
  claimDraft: 0,
  dropDraft: 0,
} as const satisfies MethodTable<DraftBackend>;
