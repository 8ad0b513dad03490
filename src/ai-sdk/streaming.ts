/**
 * The reply streaming into a chat, stored as it streams: the transport's stream
 * is passed on while its text, reasoning and tool calls are written into a
 * draft of the store (`store.drafts`), and the reply's save at `onFinish`
 * finishes that draft, the event stored and the draft removed in one
 * transaction. A reply that never finishes (the tab closed, the request failed)
 * stays as an interrupted draft, to keep, drop or resume. One reply streams at
 * a time in a chat, as in `useChat`.
 *
 * The stream is passed on unchanged but for one field: a `start` chunk without
 * a `messageId` gets one (the continued assistant message's, or a new id), so
 * the draft and the message `useChat` shows are known to be the same reply.
 *
 * A resumed stream (`reconnectToStream`) continues the reply's draft: this
 * tab's own, or an interrupted one it takes over (`drafts.resume`). A stream
 * that replays from its start (`resumeStreamIsReplay`) has what the draft
 * holds skipped (`skipStored`); one that continues the reply is written after
 * it, and is preceded by the stored part as chunks when this tab's `useChat`
 * has not seen the reply's start (it was reloaded).
 */
import type { UIMessageChunk } from 'ai';
import type { AppendStore, Draft, DraftDelta, DraftsFront, DraftWriter, Session } from '../index.js';
import { chunkDelta, continuingPart, skipStored, storedChunks } from './reply-chunks.js';

/** A store with drafts: what streaming replies need (any store from `openSessionStore` has them). */
export interface ReplyDraftStore {
  drafts?: Pick<DraftsFront, 'begin' | 'list' | 'resume'>;
}

export interface ReplyDrafts {
  /**
   * `stream` of a new request, its deltas written into a new draft; `continuing`: the id of the
   * assistant message the request continues (its last message), if it does.
   */
  tap(stream: ReadableStream<UIMessageChunk>, continuing?: string): ReadableStream<UIMessageChunk>;
  /**
   * The stream `open` resumes, continuing the reply's draft; `null` when there is none to resume,
   * or another tab is writing the reply (it shows from that tab's draft). `replay`: the stream
   * starts over from the reply's first chunk.
   */
  resume(
    open: () => Promise<ReadableStream<UIMessageChunk> | null>,
    replay: boolean,
  ): Promise<ReadableStream<UIMessageChunk> | null>;
  /** `store` with appends of the reply's event finishing its draft in the same transaction. */
  finishing(store: AppendStore): AppendStore;
  /** Lets the reply's draft go unfinished (a reply the SDK finished empty): it reads as interrupted. */
  release(): Promise<void>;
}

/** The AI SDK message id a draft `persistChat` began is for. */
export const draftMessageId = (draft: Pick<Draft, 'customMetadata'>): string | undefined => {
  const id = draft.customMetadata?.messageId;
  return typeof id === 'string' ? id : undefined;
};

export function replyDrafts(store: ReplyDraftStore, session: () => Promise<Session>, author: string): ReplyDrafts {
  // The reply this tab writes now, and the message id it is for.
  let streaming: Promise<DraftWriter | undefined> | undefined;
  let streamingId: string | undefined;

  /**
   * `stream`, its chunks' deltas written, in order, into the writer `writer()` gives (asked for on
   * the first chunk that needs it); `id` fills a `start` chunk's missing `messageId`.
   */
  const into = (
    stream: ReadableStream<UIMessageChunk>,
    writer: (messageId: string | undefined) => Promise<DraftWriter | undefined>,
    id: string | undefined,
    skip: (delta: DraftDelta) => DraftDelta | undefined = (delta) => delta,
  ): ReadableStream<UIMessageChunk> => {
    const names = new Map<string, string>();
    let held: Promise<DraftWriter | undefined> | undefined;
    let refused = false;
    const get = (messageId?: string) => {
      held ??= writer(messageId);
      return held;
    };
    return stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          const named =
            chunk.type === 'start' && chunk.messageId === undefined && id ? { ...chunk, messageId: id } : chunk;
          controller.enqueue(named);
          if (named.type === 'start') {
            void get(named.messageId);
            return;
          }
          const delta = chunkDelta(named, names);
          const fresh = delta && skip(delta);
          // Each append waits on the same promise, so they land in the order the chunks came. One the
          // draft refuses (ended, or larger than a write) ends its appends: it stays a prefix of the
          // reply, never one with a hole; the finished message holds everything.
          if (fresh)
            void get().then((w) => {
              if (!w || refused) return;
              try {
                w.append(fresh);
              } catch {
                refused = true;
              }
            });
        },
      }),
    );
  };

  /** A new draft for the reply; a reply before it that never reached `onFinish` is let go (interrupted). */
  const begin = (messageId: string | undefined): Promise<DraftWriter | undefined> => {
    const { drafts } = store;
    void streaming?.then((w) => w?.release());
    streamingId = messageId;
    streaming = drafts
      ? session()
          .then((s) => drafts.begin({ session: s, author, ...(messageId ? { customMetadata: { messageId } } : {}) }))
          // A reply whose draft cannot be begun still streams, and is stored when it finishes.
          .catch(() => undefined)
      : Promise.resolve(undefined);
    return streaming;
  };

  return {
    tap(stream, continuing) {
      if (!store.drafts) return stream;
      return into(stream, begin, continuing ?? crypto.randomUUID());
    },
    async resume(open, replay) {
      const { drafts } = store;
      const own = await streaming;
      if (!drafts) return open();
      if (own) {
        // This tab's reply (its connection dropped): the SDK still holds what came, so a continuing stream is passed as it is.
        const stream = await open();
        if (!stream) return null;
        const skip = replay ? skipStored(structuredClone(own.content.parts ?? [])) : undefined;
        return into(stream, async () => own, streamingId, skip);
      }
      const s = await session();
      const last = (await drafts.list({ appName: s.appName, userId: s.userId, sessionId: s.id }))
        .filter((draft) => draft.author === author)
        .at(-1);
      // Another tab streams the reply: it is shown from that tab's draft, not fetched twice.
      if (last && !last.interrupted) return null;
      const stream = await open();
      if (!stream || !last) return stream && into(stream, begin, undefined);
      let writer: DraftWriter;
      try {
        writer = await drafts.resume({ session: s, draftId: last.id });
      } catch {
        // Taken over by another tab an instant before: that tab continues it.
        await stream.cancel().catch(() => {});
        return null;
      }
      streaming = Promise.resolve(writer);
      streamingId = draftMessageId(last);
      const stored = structuredClone(writer.content);
      if (replay) return into(stream, async () => writer, streamingId, skipStored(stored.parts ?? []));
      const { chunks, open: left } = storedChunks(stored);
      const continued = into(stream, async () => writer, streamingId).pipeThrough(continuingPart(left));
      return concat([{ type: 'start', ...(streamingId ? { messageId: streamingId } : {}) }, ...chunks], continued);
    },
    finishing(base) {
      return {
        getSession: (request) => base.getSession(request),
        appendEvent: async (request) => {
          const current = streaming;
          const writer = request.event.author === author ? await current : undefined;
          if (!writer) return base.appendEvent(request);
          // Refused (a stale session): the draft stays, and the appender's retry finishes it.
          const stored = await writer.finish({ event: request.event, session: request.session });
          if (streaming === current) streaming = undefined;
          return stored;
        },
      };
    },
    async release() {
      const current = streaming;
      streaming = undefined;
      await (await current)?.release();
    },
  };
}

/** `first`, then what `rest` streams. */
function concat(
  first: readonly UIMessageChunk[],
  rest: ReadableStream<UIMessageChunk>,
): ReadableStream<UIMessageChunk> {
  const reader = rest.getReader();
  let queued = [...first];
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = queued.shift();
      if (next) return controller.enqueue(next);
      queued = [];
      const read = await reader.read();
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
