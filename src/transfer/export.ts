/**
 * Export: sessions as one JSON document (see `format.ts`), streamed one
 * session at a time. The keys of the sessions to export are read first, in one
 * snapshot; then each session is read whole (`getSession`), written and
 * dropped, so memory holds one session, never the export.
 */
import { publicEvent } from '../core/internal-metadata.js';
import { validate } from '../core/schema.js';
import { listSessionKeysRequestSchema } from '../sessions/schema.js';
import type { GetSessionRequest, ListSessionKeysRequest, Session, SessionKey } from '../types.js';
import { documentEnd, documentStart } from './format.js';

/** What an export reads from: any `SessionStore` (`openSessionStore()`, `connectSessionStore()`, `IndexedDbSessionService`). */
export interface TransferSource {
  /** Lists the sessions to export. */
  listSessionKeys(request?: ListSessionKeysRequest): Promise<SessionKey[]>;
  /** Reads each one, whole. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
}

/** How far an export is. */
export interface ExportProgress {
  /** Sessions written so far. */
  sessions: number;
  /** Sessions the export holds (fewer than first listed if some are deleted meanwhile). */
  totalSessions: number;
  /** Events written so far. */
  events: number;
}

/** What `exportSessions` exports, and how it reports. */
export interface ExportOptions {
  /** Export only this app's sessions. Omitted: every app in the database. */
  appName?: string;
  /** Export only this user's sessions (needs `appName`). */
  userId?: string;
  /** Called once the sessions are listed, then after each session is written. */
  onProgress?: (progress: ExportProgress) => void;
  /** Aborting errors the stream with the signal's reason. */
  signal?: AbortSignal;
  /** The `exportedAt` to write, in epoch ms. Default `Date.now()` when the export starts. */
  exportedAt?: number;
}

/** The object ADK's API server returns for a session, fields in its order, ADK's internal metadata left out as it leaves it out. */
export function adkSession(s: Session): Session {
  return {
    id: s.id,
    appName: s.appName,
    userId: s.userId,
    state: s.state,
    events: s.events.map(publicEvent),
    lastUpdateTime: s.lastUpdateTime,
  };
}

/**
 * Streams an export as UTF-8 JSON text: one line per session, in listing order
 * (apps by name, then oldest first). A session deleted while the export runs
 * is left out; one changed meanwhile is written as it is when its turn comes.
 * Throws `InvalidInputError` at once for bad options.
 *
 * @example
 * ```ts
 * const file = await new Response(exportSessions(store, { appName: 'chat' })).blob();
 * ```
 */
export function exportSessions(store: TransferSource, options: ExportOptions = {}): ReadableStream<Uint8Array> {
  const { onProgress, signal } = options;
  const request: ListSessionKeysRequest = validate('exportSessions', listSessionKeysRequestSchema, {
    ...(options.appName !== undefined ? { appName: options.appName } : {}),
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
  });
  const encoder = new TextEncoder();
  let keys: SessionKey[] | undefined;
  let next = 0;
  const progress: ExportProgress = { sessions: 0, totalSessions: 0, events: 0 };
  const report = (): void => onProgress?.({ ...progress });
  let stopListening = (): void => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (!signal) return;
      const abort = (): void => controller.error(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      stopListening = () => signal.removeEventListener('abort', abort);
    },
    async pull(controller) {
      try {
        signal?.throwIfAborted();
        if (!keys) {
          const exportedAt = options.exportedAt ?? Date.now();
          keys = await store.listSessionKeys(request);
          progress.totalSessions = keys.length;
          controller.enqueue(encoder.encode(documentStart(exportedAt)));
          report();
          return;
        }
        while (next < keys.length) {
          const key = keys[next++] as SessionKey;
          const session = await store.getSession(key);
          signal?.throwIfAborted();
          if (!session) {
            progress.totalSessions--;
            report();
            continue;
          }
          const separator = progress.sessions === 0 ? '\n' : ',\n';
          controller.enqueue(encoder.encode(separator + JSON.stringify(adkSession(session))));
          progress.sessions++;
          progress.events += session.events.length;
          report();
          return;
        }
        controller.enqueue(encoder.encode(documentEnd));
        controller.close();
        stopListening();
      } catch (error) {
        stopListening();
        throw error;
      }
    },
    cancel() {
      stopListening();
      keys = [];
    },
  });
}

/** The whole export as a `Blob` of type `application/json`, e.g. for a download link. */
export async function exportSessionsToBlob(store: TransferSource, options: ExportOptions = {}): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const reader = exportSessions(store, options).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(chunks, { type: 'application/json' });
}
