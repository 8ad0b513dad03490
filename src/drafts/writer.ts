/**
 * The writer of one draft, in the tab that streams it. Appends are folded into
 * its content at once and written together: the first append after a write
 * starts a clock of `maxLossMs`, and what arrived by then goes as one chunk.
 * Writes run one at a time in order, each numbered, and none larger than one
 * event may be (`MAX_RECORD_SIZE`): what piled up beyond that goes in several.
 * A failed write keeps its appends, ahead of newer ones, for the next; so a
 * delta the store would refuse whatever comes after it (not JSON, or larger
 * than an event) is refused by `append` itself, or it would fail every write
 * after it. `finish` waits for the write in
 * flight, then hands the final event to the session front, which stores it and
 * removes the draft in one transaction.
 */
import { InvalidInputError } from '../core/errors.js';
import { checkJson, EVENT_JSON, formatPath } from '../core/json.js';
import { MAX_RECORD_SIZE } from '../core/limits.js';
import type { DraftDelta, DraftWriter, FinishDraftOptions } from '../public/drafts.js';
import type { AppendEventRequest, Content, Event, Session } from '../public/sessions.js';
import { foldDelta, joinDeltas } from './content.js';
import type { PreviewTail } from './preview.js';
import type { DraftBackend } from './protocol.js';

/** What a writer knows of its draft. */
export interface WriterHead {
  id: string;
  session: Session;
  author: string;
  invocationId?: string;
  branch?: string;
  /** The name of the lock it holds (liveness.ts). */
  writer: string;
}

/** Stores a final event, removing the draft in the same transaction (`SessionFront.appendFinishing`). */
export type FinishAppend = (request: AppendEventRequest, draftId: string) => Promise<Event>;

export class Writer implements DraftWriter {
  readonly content: Content;
  error: Error | undefined;
  /** The appends not written yet, each with its JSON size as the store measures a write. */
  private pending: { delta: DraftDelta; size: number }[] = [];
  private firstPendingAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private finishing = false;
  private ended = false;

  constructor(
    private readonly backend: DraftBackend,
    private readonly finishAppend: FinishAppend,
    private readonly head: WriterHead,
    private readonly letGo: () => void,
    private seq: number,
    content: Content,
    private readonly maxLossMs: number,
    /** Numbers the appends, and posts what is not stored yet to other tabs (preview.ts). */
    private readonly preview: PreviewTail,
  ) {
    this.content = { role: content.role ?? 'model', parts: content.parts ?? [] };
  }

  get id(): string {
    return this.head.id;
  }

  append(delta: DraftDelta): void {
    if (this.ended || this.finishing) {
      throw new InvalidInputError(
        `append: draft ${this.id} is ${this.ended ? 'finished or dropped' : 'being finished'}`,
      );
    }
    const copy = checkedDelta(delta);
    const size = sizeOf(copy);
    foldDelta(this.content.parts as NonNullable<Content['parts']>, copy);
    if (this.pending.length === 0) this.firstPendingAt = Date.now();
    this.pending.push({ delta: copy, size });
    this.preview.appended(copy);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.writing || this.pending.length === 0 || this.ended || this.finishing) return;
    const wait = Math.max(0, this.firstPendingAt + this.maxLossMs - Date.now());
    // An unanswered write is kept in `error` and retried with the next; `flush` is how to await it.
    const write = () => void this.flush().catch(() => {});
    if (wait === 0 && this.maxLossMs === 0) queueMicrotask(write);
    else this.timer = setTimeout(write, wait);
  }

  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const previous = this.writing ?? Promise.resolve();
    const current = previous.catch(() => {}).then(() => this.writePending());
    this.writing = current;
    const settled = () => {
      if (this.writing !== current) return;
      this.writing = undefined;
      if (!this.error) this.schedule();
    };
    current.then(settled, settled);
    return current;
  }

  private async writePending(): Promise<void> {
    while (this.pending.length > 0 && !this.ended) {
      // As many deltas as one write may hold: the array's brackets, and each delta with its comma.
      let take = 0;
      let size = 2;
      for (const append of this.pending) {
        size += append.size + 1;
        if (take > 0 && size > MAX_RECORD_SIZE) break;
        take++;
      }
      const taken = this.pending.slice(0, take);
      const upTo = this.preview.count - (this.pending.length - take);
      this.pending = this.pending.slice(take);
      try {
        const { session, writer } = this.head;
        await this.backend.writeDraft({
          appName: session.appName,
          userId: session.userId,
          sessionId: session.id,
          draftId: this.id,
          writer,
          seq: this.seq,
          deltas: joinDeltas(taken.map((p) => p.delta)),
          appends: upTo,
        });
      } catch (error) {
        this.pending = [...taken, ...this.pending];
        this.error = error instanceof Error ? error : new Error(String(error));
        throw this.error;
      }
      this.seq++;
      this.error = undefined;
      this.preview.written(upTo);
    }
  }

  async finish(options: FinishDraftOptions = {}): Promise<Event> {
    if (this.ended) throw new InvalidInputError(`finish: draft ${this.id} is finished or dropped`);
    if (this.finishing) throw new InvalidInputError(`finish: draft ${this.id} is being finished`);
    this.finishing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      // The final event holds everything: what is pending need not be written first.
      await this.writing?.catch(() => {});
      const { session, author, invocationId, branch } = this.head;
      const event: Event = options.event ?? {
        id: this.id,
        ...(invocationId === undefined ? {} : { invocationId }),
        author,
        ...(branch === undefined ? {} : { branch }),
        timestamp: Date.now(),
        content: structuredClone(this.content),
        ...(options.interrupted ? { interrupted: true } : {}),
      };
      let stored: Event;
      try {
        stored = await this.finishAppend({ session: options.session ?? session, event }, this.id);
      } catch (error) {
        // The draft stays: what it holds and was not written yet is written now, for its readers.
        this.finishing = false;
        void this.flush().catch(() => {});
        throw error;
      }
      this.end();
      return stored;
    } finally {
      this.finishing = false;
    }
  }

  async abandon(): Promise<void> {
    if (this.ended) return;
    this.end();
    await this.writing?.catch(() => {});
    const { session } = this.head;
    await this.backend.dropDraft({
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
      draftId: this.id,
    });
  }

  async release(): Promise<void> {
    if (this.ended || this.finishing) return;
    await this.flush().catch(() => {});
    this.end();
  }

  /** Stops writing and lets the draft go (interrupted, to any reader) without removing it. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    this.preview.end();
    this.letGo();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A copy of `delta`, checked as far as the fold relies on it; the store checks the rest. */
function checkedDelta(delta: DraftDelta): DraftDelta {
  const refuse = (why: string): never => {
    throw new InvalidInputError(`append: delta${why}`);
  };
  if (!isObject(delta)) refuse(': must be an object');
  const { text, thought, parts } = delta;
  if (text !== undefined && typeof text !== 'string') refuse('.text: must be a string');
  if (thought !== undefined && typeof thought !== 'string') refuse('.thought: must be a string');
  if (parts !== undefined && !(Array.isArray(parts) && parts.every(isObject)))
    refuse('.parts: must be an array of parts');
  let copied: DraftDelta['parts'];
  try {
    copied = parts === undefined ? undefined : structuredClone(parts);
  } catch (error) {
    refuse(`.parts: cannot be copied (${error instanceof Error ? error.message : String(error)})`);
  }
  return {
    ...(text === undefined ? {} : { text }),
    ...(thought === undefined ? {} : { thought }),
    ...(copied === undefined ? {} : { parts: copied }),
  };
}

/** The size the store counts for `delta` in a write; refuses one no write could hold. */
function sizeOf(delta: DraftDelta): number {
  const measure = { size: 0 };
  const problem = checkJson(delta, measure, EVENT_JSON);
  if (problem) throw new InvalidInputError(`append: ${formatPath(['delta', ...problem.path])}: ${problem.why}`);
  // A write is an array: its brackets and this delta's comma come on top.
  if (measure.size + 3 > MAX_RECORD_SIZE) {
    throw new InvalidInputError(`append: delta is larger than the ${MAX_RECORD_SIZE}-character limit of one write`);
  }
  return measure.size;
}
