/**
 * The one store: what `openSessionStore` (every mode), `connectSessionStore`
 * and `new IndexedDbSessionService` all return. Its members and its lifecycle
 * live here once, over a `StoreBackend` that says only where the work runs (a
 * worker behind a port, or this thread), so the ways of getting a store cannot
 * drift apart again: three hand-assembled classes once did, and the in-thread
 * store lost `onClose`, `ready` and `closed`. Nothing here imports the engine:
 * a page that runs the store in a worker never loads it.
 */
import { type ArtifactFront, artifactFrontOver } from '../artifacts/front.js';
import type { ArtifactBackend } from '../artifacts/protocol.js';
import type { StoreClosedError } from '../core/errors.js';
import { ChangeFeed, type ChangeFilter, type ChangeListener } from '../database/changes.js';
import { draftsFrontOver } from '../drafts/front.js';
import type { DraftsFront } from '../drafts/index.js';
import type { DraftBackend } from '../drafts/protocol.js';
import { type MemoryFront, memoryFrontOver } from '../memory/front.js';
import type { MemoryBackend } from '../memory/protocol.js';
import type { SearchBackend } from '../search/protocol.js';
import type { SearchEventsRequest, SearchEventsResponse } from '../search/schema.js';
import { SessionFront } from '../sessions/front.js';
import type { SessionImportOptions } from '../sessions/import-options.js';
import type { Backend, ImportOutcome } from '../sessions/protocol.js';
import type { SyncBackend } from '../sync/protocol.js';
import type {
  AppendEventsRequest,
  Durability,
  EraseRequest,
  EraseResult,
  Event,
  ListSessionKeysRequest,
  RewindRequest,
  Session,
  SessionCatalog,
  SessionKey,
  SessionService,
} from '../types.js';
import { type SyncHandle, type SyncStartOptions, startSync } from './sync-handle.js';

/**
 * Where a store runs: `'shared'` (the origin's SharedWorker), `'dedicated'`
 * (this tab's worker), `'in-thread'` (no worker), `'port'` (whatever serves
 * the `MessagePort` given to `connectSessionStore`).
 */
export type StoreKind = 'shared' | 'dedicated' | 'in-thread' | 'port';

/** Every store, however it was got: the ADK session service and the rest on the same database. */
export interface SessionStore extends SessionService, SessionCatalog {
  /** Where the store runs. */
  readonly mode: StoreKind;
  /** Artifacts (ADK's `BaseArtifactService`, and Blobs) on the same database. */
  readonly artifacts: ArtifactFront;
  /** Memory (ADK's memory service): what was added to it, searched like `searchEvents`. */
  readonly memory: MemoryFront;
  /**
   * Replies stored as they stream: a draft per reply, written in chunks as it grows, seen live
   * by other tabs, found after a crash, turned into its final event in one transaction.
   */
  readonly drafts: DraftsFront;
  /**
   * Resolves once the store has started (its worker answered, or its in-thread
   * code is loaded) and stays resolved; rejects if it never starts (a worker
   * that failed to load, a store closed first). Calls need not wait for it.
   */
  readonly ready: Promise<void>;
  /** True once the store is closed: by `close()`, a worker that died, or another tab's upgrade or deletion. */
  readonly closed: boolean;
  /**
   * Calls `listener` once when the store closes for good: `close()`, its worker
   * crashed or was terminated, or another tab upgraded or deleted the database
   * (then reload to continue). At once if it is already closed. Returns the
   * unsubscribe function.
   */
  onClose(listener: (error: StoreClosedError) => void): () => void;
  /**
   * Calls `listener` after each committed change matching `filter`, from this
   * tab or any other. Returns the unsubscribe function.
   */
  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void;
  /**
   * Starts syncing one user's sessions with a sync server; see README "Sync".
   * A conflict callback and your own `fetch` need a store in this thread.
   */
  sync(options: SyncStartOptions): Promise<SyncHandle>;
  /** Several events of one session in one transaction, all or none; see `SessionFront.appendEvents`. */
  appendEvents(request: AppendEventsRequest): Promise<Event[]>;
  /**
   * Seals a turn that was cut off (a tab closed while a tool ran): when the session's last
   * invocation has function calls without a response, appends in one transaction the events
   * adk-js's abort handling appends (`errorCode: 'INVOCATION_ABORTED'`, one per issuing author and
   * branch, answering each dangling call with `{ error: 'Invocation was aborted by client.' }`), so
   * the next turn of ADK's Runner sends the model a valid history. Resolves the events appended:
   * none when nothing dangles (sealing again appends nothing) or the session does not exist.
   * Session objects read before it are then stale: read the session again.
   */
  sealInterrupted(request: SessionKey): Promise<Event[]>;
  /**
   * Undoes the session's turns from invocation `beforeInvocationId` on, as ADK's rewind does:
   * appends ONE event (author `'user'`, a fresh invocation, `actions.rewindBeforeInvocationId`) and
   * deletes nothing. Its `stateDelta` restores the session's own keys to their values before that
   * invocation's first event (keys set since become `null`; `app:` and `user:` keys stay), and each
   * artifact of the session changed since is saved again as a new version holding its old bytes (or
   * empty `application/octet-stream` bytes if it did not exist then), named in its `artifactDelta`:
   * all in one transaction. Resolves the rewind event. `withoutRewound` reads a history without the
   * undone events; `AdkSessionService` gives ADK's Runner sessions so. Rejects with
   * `InvocationNotFoundError` when no event of the session has that invocation, with
   * `SessionNotFoundError` when there is no such session. Session objects read before it are then
   * stale: read the session again.
   */
  rewind(request: RewindRequest): Promise<Event>;
  /**
   * Erases what events said, for privacy (hard deletion, beside the non-destructive `rewind`): each
   * event `eventIds` names, and every event of `invocationId`, keeps its place, `id`,
   * `invocationId`, `author` and `timestamp`, and loses its `content` and every other field a person
   * could be in (grounding, usage, error message, compaction summaries, custom metadata, requested
   * auth configs and tool confirmations, and the writes of its `stateDelta` no longer in effect).
   * `customMetadata` then holds only the mark `isErased` reads. `stateDelta` keeps the writes whose
   * value the state still holds: they show nothing `state` does not (set a value to `null` with an
   * append first to have it go). The session's state is left as it is (undo state with `rewind`); `artifactDelta` is kept (the
   * artifacts are deleted with `artifacts.deleteArtifact`). In the same transaction the memory
   * entries added under the session's id for those events and the saved search index shards holding
   * the session are deleted. Resolves the ids named and those this call erased; erasing again
   * changes nothing. Session objects read before stay current (an agent running on the session
   * goes on), but still hold the content in memory: read the session again. Rejects with
   * `SessionNotFoundError`, `EventNotFoundError` (an id the session lacks) or
   * `InvocationNotFoundError` (no event of that invocation), erasing nothing.
   */
  erase(request: EraseRequest): Promise<EraseResult>;
  /** Keys of every session of every app, of one app, or of one user: one snapshot, oldest first. */
  listSessionKeys(request?: ListSessionKeysRequest): Promise<SessionKey[]>;
  /** Writes whole sessions in one transaction, all or none; see README "Export and import". */
  importSessions(sessions: readonly Session[], options?: SessionImportOptions): Promise<ImportOutcome>;
  /** Ranked full-text search over one app and user's events; see README "Search across conversations". */
  searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse>;
}

/**
 * What a store needs of the place its work runs: every request, sync, and the
 * lifecycle. `RemoteBackend` (a worker) and `LazyEngine` (this thread) are the two.
 */
export interface StoreBackend
  extends Backend,
    ArtifactBackend,
    SearchBackend,
    MemoryBackend,
    DraftBackend,
    SyncBackend {
  /** The database's name, for the change feed: known at once in-thread, from the hello through a worker. */
  readonly dbName: string | Promise<string>;
  readonly ready: Promise<void>;
  readonly closed: boolean;
  onClose(listener: (error: StoreClosedError) => void): () => void;
}

/** The implementation of `SessionStore` every way of getting a store builds. */
export class Store extends SessionFront implements SessionStore {
  readonly artifacts: ArtifactFront;
  readonly memory: MemoryFront;
  readonly drafts: DraftsFront;
  private readonly writers: { releaseAll(): Promise<void> };
  private readonly feed: ChangeFeed;

  constructor(
    private readonly parts: StoreBackend,
    readonly mode: StoreKind,
    durability?: Durability,
  ) {
    super(parts, durability);
    this.artifacts = artifactFrontOver(parts);
    this.memory = memoryFrontOver(parts);
    this.drafts = this.writers = draftsFrontOver(
      parts,
      (request, draftId) => this.appendFinishing(request, draftId),
      (listener) => parts.onClose(listener),
      parts.dbName,
      parts.ready,
    );
    this.feed = new ChangeFeed(parts.dbName);
  }

  get ready(): Promise<void> {
    return this.parts.ready;
  }

  get closed(): boolean {
    return this.parts.closed;
  }

  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.parts.onClose(listener);
  }

  /**
   * Ranked full-text search over one app and user's events (never another's):
   * hits with their session, event, author, time and a snippet marking what
   * matched. See the README's "Search across conversations".
   */
  async searchEvents(request: SearchEventsRequest): Promise<SearchEventsResponse> {
    return this.parts.searchEvents(request);
  }

  subscribe(filter: ChangeFilter, listener: ChangeListener): () => void {
    return this.feed.subscribe(filter, listener);
  }

  sync(options: SyncStartOptions): Promise<SyncHandle> {
    return startSync(this.parts, options);
  }

  /** Lets queued appends finish, then releases the store (its sync, its database, an owned worker). */
  override async close(): Promise<void> {
    await this.writers.releaseAll().catch(() => {});
    await super.close();
    this.feed.close();
  }
}
