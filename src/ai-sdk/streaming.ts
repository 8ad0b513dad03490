/**
 * The reply streaming into a chat, stored as it streams: the transport's stream
 * is passed on unchanged while its text and reasoning deltas are written into a
 * draft of the store (`store.drafts`), and the reply's save at `onFinish`
 * finishes that draft, the event stored and the draft removed in one
 * transaction. A reply that never finishes (the tab closed, the request failed)
 * stays as an interrupted draft, to keep (`drafts.keep`) or drop. One reply
 * streams at a time in a chat, as in `useChat`.
 */
import type { UIMessageChunk } from 'ai';
import type { AppendStore, DraftsFront, DraftWriter, Session } from '../index.js';

/** A store with drafts: what streaming replies need (any store from `openSessionStore` has them). */
export interface ReplyDraftStore {
  drafts?: Pick<DraftsFront, 'begin'>;
}

export interface ReplyDrafts {
  /** `stream`, passed on as it is, its deltas written into a draft. */
  tap(stream: ReadableStream<UIMessageChunk>): ReadableStream<UIMessageChunk>;
  /** `store` with appends of the reply's event finishing its draft in the same transaction. */
  finishing(store: AppendStore): AppendStore;
  /** Lets the reply's draft go unfinished (a reply the SDK finished empty): it reads as interrupted. */
  release(): Promise<void>;
}

export function replyDrafts(store: ReplyDraftStore, session: () => Promise<Session>, author: string): ReplyDrafts {
  let streaming: Promise<DraftWriter | undefined> | undefined;
  return {
    tap(stream) {
      const { drafts } = store;
      if (!drafts) return stream;
      let writer: Promise<DraftWriter | undefined> | undefined;
      const begin = (messageId?: string) => {
        if (writer) return writer;
        // A reply before it that never reached `onFinish` is let go: it reads as interrupted.
        void streaming?.then((w) => w?.release());
        writer = session()
          .then((s) => drafts.begin({ session: s, author, ...(messageId ? { customMetadata: { messageId } } : {}) }))
          // A reply whose draft cannot be begun still streams, and is stored when it finishes.
          .catch(() => undefined);
        streaming = writer;
        return writer;
      };
      return stream.pipeThrough(
        new TransformStream<UIMessageChunk, UIMessageChunk>({
          transform(chunk, controller) {
            controller.enqueue(chunk);
            // Each append waits on the same promise, so they land in the order the chunks came.
            if (chunk.type === 'start') void begin(chunk.messageId);
            else if (chunk.type === 'text-delta') void begin().then((w) => w?.append({ text: chunk.delta }));
            else if (chunk.type === 'reasoning-delta') void begin().then((w) => w?.append({ thought: chunk.delta }));
          },
        }),
      );
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
