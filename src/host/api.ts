/**
 * The worker boundary's messages: what a host answers on one connection. Every
 * call answers with a `Result`, so errors travel as data and keep their class.
 */
import type { ArtifactBackend } from '../artifacts/protocol.js';
import type { WireError } from '../core/errors.js';
import type { DraftBackend } from '../drafts/protocol.js';
import type { MemoryBackend } from '../memory/protocol.js';
import type { SearchBackend } from '../search/protocol.js';
import type { AppendBatch, AppendOutcome, Backend } from '../sessions/protocol.js';
import type { SyncBackend } from '../sync/protocol.js';

/** What a call over the worker boundary returns: errors travel as data, so their class survives. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** Sent first by every client. `dbName` must match the store the host serves, when it serves one. */
export interface HelloRequest {
  dbName?: string;
}

export interface HelloResponse {
  dbName: string;
  /** A Web Lock the host holds for its lifetime: when the client is granted it, the host is gone. */
  lockName: string | null;
  /**
   * The calls this host serves. A page newer than the worker serving it (a
   * shared worker from before a deploy, still open in another tab) learns here
   * what it cannot ask for; absent from hosts that predate the list.
   */
  methods?: string[];
}

/** What a host serves: the session backend's methods and the artifact service's. */
export type Served = Omit<Backend, 'close'> &
  ArtifactBackend &
  SearchBackend &
  MemoryBackend &
  DraftBackend &
  SyncBackend;

/** The host side of one connection: the served methods, each answering with a `Result`. */
export type HostApi = {
  [K in keyof Served]: (...args: Parameters<Served[K]>) => Promise<Result<Awaited<ReturnType<Served[K]>>>>;
} & {
  hello(request: HelloRequest): Promise<Result<HelloResponse>>;
  /**
   * Several sessions' append batches in one message, each answered on its own:
   * what a page sends when many sessions append in the same turn, so that they
   * reach one group commit together and their answers come back together.
   */
  appendMany(batches: AppendBatch[]): Promise<Result<Result<AppendOutcome>[]>>;
  /** Ends this connection; with `closeStore`, also closes the store once its queued writes commit. */
  goodbye(closeStore: boolean): Promise<Result<void>>;
  /**
   * Answers only when the store closes for good (another tab upgraded or
   * deleted the database, the browser closed it, or it was closed), with why.
   * A client keeps one such call pending to learn of it at once.
   */
  whenClosed(): Promise<Result<WireError>>;
};
