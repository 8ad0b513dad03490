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
}

export interface ClaimDraft extends DraftKeyRequest {
  writer: string;
}

/** A claimed draft, and the `seq` its next write takes. */
export interface ClaimedDraft {
  draft: Draft;
  nextSeq: number;
}

export interface DraftBackend {
  /** Stores a new draft's head; resolves it as readers see it. */
  beginDraft(request: BeginDraft): Promise<Draft>;
  writeDraft(request: WriteDraft): Promise<void>;
  /** The session's drafts, oldest first. */
  readDrafts(request: SessionKey): Promise<Draft[]>;
  /** Makes `writer` the writer of an interrupted draft. */
  claimDraft(request: ClaimDraft): Promise<ClaimedDraft>;
  /** Removes a draft; resolves whether there was one. */
  dropDraft(request: DraftKeyRequest): Promise<boolean>;
}

/** The calls, by name (see `MethodTable`): what the host serves and a forwarding backend forwards. */
export const DRAFT_METHODS = {
  beginDraft: 0,
  writeDraft: 0,
  readDrafts: 0,
  claimDraft: 0,
  dropDraft: 0,
} as const satisfies MethodTable<DraftBackend>;
