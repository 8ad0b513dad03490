/**
 * What `store.drafts` does (its contracts are on `DraftsFront`, ./front.ts), in a chunk of its
 * own that the page fetches soon after the store starts, not in its first bundle. Requests are
 * checked where the engine runs; a writer lives in this tab and holds its draft's lock
 * (liveness.ts) until it finishes, is abandoned, or the store closes.
 */
import { DraftInUseError } from '../core/draft-errors.js';
import { AlreadyExistsError, InvalidInputError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { DEFAULT_MAX_LOSS_MS } from '../core/limits.js';
import type {
  BeginDraftRequest,
  Draft,
  DraftRequest,
  DraftsFront,
  DraftWriter,
  ResumeDraftRequest,
} from '../public/drafts.js';
import type { Event, Session, SessionKey } from '../public/sessions.js';
import { draftLock, holdDraft, whenDraftFree } from './liveness.js';
import { PreviewTail, previewChannel } from './preview.js';
import type { DraftBackend } from './protocol.js';
import { type FinishAppend, Writer } from './writer.js';

const keyOf = (session: Session): SessionKey => {
  if (typeof session !== 'object' || session === null)
    throw new InvalidInputError('drafts: session: is required (object)');
  return { appName: session.appName, userId: session.userId, sessionId: session.id };
};

function maxLossOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_LOSS_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidInputError('drafts: maxLossMs: must be a non-negative number of milliseconds');
  }
  return value;
}

export class BackedDraftsFront implements DraftsFront {
  /** Writers of this store still open: the store's closing lets their drafts go. */
  private readonly open = new Set<Writer>();
  /** Where this store's writers post their previews: opened by the first writer, closed with the store. */
  private previews: BroadcastChannel | undefined;
  private closed = false;

  constructor(
    private readonly backend: DraftBackend,
    private readonly finishAppend: FinishAppend,
    onClose: (listener: () => void) => void,
    private readonly dbName: string | Promise<string>,
  ) {
    onClose(() => {
      this.closed = true;
      for (const writer of this.open) writer.end();
      this.open.clear();
      this.previews?.close();
      this.previews = undefined;
    });
  }

  /** The preview state of a writer whose draft holds `appends` appends (preview.ts). */
  private async tail(head: ConstructorParameters<typeof Writer>[2], appends: number): Promise<PreviewTail> {
    const dbName = await this.dbName;
    if (!this.previews && !this.closed && typeof BroadcastChannel !== 'undefined') {
      this.previews = new BroadcastChannel(previewChannel(dbName));
      // In Node an open channel keeps the process alive; a store's must not.
      (this.previews as { unref?: () => void }).unref?.();
    }
    const { session, id: draftId, writer } = head;
    const key = { appName: session.appName, userId: session.userId, sessionId: session.id, draftId, writer };
    return new PreviewTail(
      appends,
      this.previews && ((base, deltas) => this.previews?.postMessage({ ...key, base, deltas })),
    );
  }

  private async writer(
    head: ConstructorParameters<typeof Writer>[2],
    release: () => void,
    seq: number,
    draft: Pick<Draft, 'content'>,
    maxLossMs: number,
    appends = 0,
  ): Promise<Writer> {
    const preview = await this.tail(head, appends);
    const writer = new Writer(
      this.backend,
      this.finishAppend,
      head,
      () => {
        this.open.delete(writer);
        release();
      },
      seq,
      draft.content,
      maxLossMs,
      preview,
    );
    this.open.add(writer);
    return writer;
  }

  async begin(request: BeginDraftRequest): Promise<DraftWriter> {
    const { session, author = 'model', invocationId, branch, customMetadata } = request;
    const key = keyOf(session);
    const maxLossMs = maxLossOf(request.maxLossMs);
    const id = request.id ?? newId();
    const writer = newId();
    const release = await holdDraft(draftLock(await this.dbName, { ...key, draftId: id }));
    if (!release) throw new AlreadyExistsError(`drafts.begin: draft ${id} is being written in another tab`);
    try {
      await this.backend.beginDraft({
        ...key,
        draftId: id,
        writer,
        author,
        ...(invocationId === undefined ? {} : { invocationId }),
        ...(branch === undefined ? {} : { branch }),
        ...(customMetadata === undefined ? {} : { customMetadata }),
      });
    } catch (error) {
      release();
      throw error;
    }
    const head = { id, session, author, invocationId, branch, writer };
    return this.writer(head, release, 1, { content: { role: 'model', parts: [] } }, maxLossMs);
  }

  list(request: SessionKey): Promise<Draft[]> {
    return this.backend.readDrafts(request);
  }

  async resume(request: ResumeDraftRequest): Promise<Writer> {
    const { session, draftId } = request;
    const key = keyOf(session);
    const maxLossMs = maxLossOf(request.maxLossMs);
    const writer = newId();
    const release = await holdDraft(draftLock(await this.dbName, { ...key, draftId }));
    if (!release) throw new DraftInUseError(`drafts.resume: draft ${draftId} is still being written by a live tab`);
    let claimed: Awaited<ReturnType<DraftBackend['claimDraft']>>;
    try {
      claimed = await this.backend.claimDraft({ ...key, draftId, writer });
    } catch (error) {
      release();
      throw error;
    }
    const { draft, nextSeq, appends } = claimed;
    const head = {
      id: draftId,
      session,
      author: draft.author,
      invocationId: draft.invocationId,
      branch: draft.branch,
      writer,
    };
    return this.writer(head, release, nextSeq, draft, maxLossMs, appends);
  }

  async keep(request: { session: Session; draftId: string }): Promise<Event> {
    const writer = await this.resume(request);
    try {
      return await writer.finish({ interrupted: true });
    } finally {
      // Refused (a stale session, say): the draft stays, interrupted, for another try.
      writer.end();
    }
  }

  /** Writes what each open writer holds and lets its draft go (the store is closing). */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.open].map((writer) => writer.release()));
  }

  drop(request: DraftRequest): Promise<boolean> {
    return this.backend.dropDraft(request);
  }

  async untilWriterGone(request: DraftRequest, signal: AbortSignal): Promise<void> {
    return whenDraftFree(draftLock(await this.dbName, request), signal);
  }
}
