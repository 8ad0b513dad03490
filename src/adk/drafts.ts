/**
 * Streaming replies for ADK's Runner. With `streamingMode: SSE` the Runner
 * yields each model reply as partial events (the text of each chunk) before the
 * final one, and stores only the final one: a tab closed mid-reply loses it.
 * The plugin `AdkSessionService.draftsPlugin` gives hears every event the Runner
 * yields; it writes each partial event's parts into a draft of the store (one per
 * invocation, author and branch), and the service's `appendEvent` of the final
 * event finishes that draft: the event stored and the draft removed in one
 * transaction. What is stored after a streamed run is what a run without
 * streaming stores. A reply ended by an error, or by a run stopped with its
 * `abortSignal`, keeps what streamed as an interrupted draft, to keep or drop;
 * a run that throws leaves its drafts to this tab until the store closes.
 */
import { type Event as AdkEvent, BasePlugin, type InvocationContext } from '@google/adk';
import type { DraftsFront, DraftWriter, Event, Session, SessionKey } from '../index.js';

/** A store with drafts (`store.drafts`): the one `AdkSessionService` was given, when it has them. */
export interface DraftStore {
  /** The store's drafts, into which replies stream. */
  readonly drafts: Pick<DraftsFront, 'begin'>;
}

const replyKey = (session: Session, event: Pick<Event, 'invocationId' | 'author' | 'branch'>): string =>
  JSON.stringify([session.appName, session.userId, session.id, event.invocationId, event.author, event.branch ?? null]);

/** A reply streaming now: whose, and its draft's writer (`undefined` when it could not be begun). */
interface OpenReply {
  session: Session;
  invocationId: string | undefined;
  writer: Promise<DraftWriter | undefined>;
}

/** The drafts of replies streaming now, by session, invocation, author and branch. */
export class StreamingReplies {
  private readonly open = new Map<string, OpenReply>();

  constructor(private readonly store: DraftStore) {}

  /** Adds a partial event's parts to its reply's draft, begun by the first. */
  async partial(session: Session, event: Event): Promise<void> {
    const key = replyKey(session, event);
    let writer = this.open.get(key)?.writer;
    if (!writer) {
      writer = this.store.drafts
        .begin({
          session,
          ...(event.author === undefined ? {} : { author: event.author }),
          ...(event.invocationId === undefined ? {} : { invocationId: event.invocationId }),
          ...(event.branch === undefined ? {} : { branch: event.branch }),
        })
        // A reply whose draft cannot be begun (a full session of drafts) still streams; it is stored at its end as ever.
        .catch(() => undefined);
      this.open.set(key, { session, invocationId: event.invocationId, writer });
    }
    const draft = await writer;
    for (const part of event.content?.parts ?? []) {
      if (typeof part.text === 'string' && Object.keys(part).every((k) => k === 'text' || k === 'thought')) {
        draft?.append(part.thought ? { thought: part.text } : { text: part.text });
      } else draft?.append({ parts: [part] });
    }
  }

  /** The draft the final `event` finishes, taken from those streaming; `undefined` when none streams. */
  async take(session: Session, event: Event): Promise<DraftWriter | undefined> {
    const key = replyKey(session, event);
    const writer = this.open.get(key)?.writer;
    this.open.delete(key);
    return writer;
  }

  /** Lets a session's unfinished drafts (of one invocation, if given) go: they read as interrupted. */
  async release(session: SessionKey, invocationId?: string): Promise<void> {
    for (const [key, { session: of, invocationId: invocation, writer }] of [...this.open]) {
      const other = of.appName !== session.appName || of.userId !== session.userId || of.id !== session.sessionId;
      if (other || (invocationId !== undefined && invocation !== invocationId)) continue;
      this.open.delete(key);
      await (await writer)?.release();
    }
  }
}

/** The Runner plugin that feeds partial events to `replies` (see the module's comment). */
export class DraftsPlugin extends BasePlugin {
  constructor(private readonly replies: StreamingReplies) {
    super('idb-adk-sessions-drafts');
  }

  override async onEventCallback(params: {
    invocationContext: InvocationContext;
    event: AdkEvent;
  }): Promise<AdkEvent | undefined> {
    const { invocationContext, event } = params;
    if (event.partial) await this.replies.partial(invocationContext.session as Session, event as Event);
    return undefined;
  }

  override async afterRunCallback(params: { invocationContext: InvocationContext }): Promise<void> {
    const { session, invocationId } = params.invocationContext;
    await this.replies.release(
      { appName: session.appName, userId: session.userId, sessionId: session.id },
      invocationId,
    );
  }
}
