/**
 * The page's side of its first reads (sessions/first-read.ts) and of a worker
 * started when needed (./later-worker.ts), for `RemoteBackend`. `getSession`
 * calls made before the worker answered are read by the page, on the connection
 * `opening` gives (./first-open.ts), until the first call that is not a read: the
 * page never answers in place of the worker after one of its own writes. The
 * worker is started after the first read is answered, by the first call only it
 * serves, or once `opening` is done if nothing was read by then.
 */
import type { FirstReads } from '../sessions/first-read.js';
import type { LoadedSession } from '../sessions/protocol.js';
import type { GetSessionRequest } from '../types.js';

/** Calls that write nothing: the page may go on reading after them. Any other call ends its reads. */
const READS = new Set([
  'hello',
  'getSession',
  'listSessions',
  'listSessionKeys',
  'getUserState',
  'getAppState',
  'listApps',
  'listUsers',
]);

/** How long a page read may hold up the worker's start, or hold up its own answer once the worker is up. */
const HELD_UP_MS = 1000;

export class EarlyReads {
  /** The reads' code and connection, once a read asked for them; `false` once reads must stop. */
  private reads: Promise<FirstReads> | false | undefined;
  private answered = false;
  private ended = false;
  /** The worker was started, or asked to start: a goodbye can reach it. */
  private workerAsked: boolean;
  /** Settles when the worker answered the hello, or never will. */
  private hello: Promise<unknown> = Promise.resolve();
  private markStarted: () => void = () => {};
  /** Resolves once the worker is started (at once for one already running): calls' timeouts count from it. */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(
    private readonly opening: Promise<IDBDatabase | undefined> | undefined,
    private readonly startWorker: (() => void) | undefined,
    private readonly startFailed: (error: unknown) => void,
  ) {
    this.workerAsked = startWorker === undefined;
    if (this.workerAsked) this.markStarted();
    if (!opening) this.reads = false;
    void opening?.then(() => {
      // A read in flight starts it when answered; one held up (a chunk slow to arrive, a transaction
      // queued behind another tab's) must not hold the worker back for long.
      if (this.reads === undefined) this.needWorker();
      else setTimeout(() => this.needWorker(), HELD_UP_MS);
    });
  }

  /** The worker's answer to the hello: reads stop being the page's once it has come. */
  greeted(hello: Promise<unknown>): void {
    this.hello = hello;
    hello.then(
      () => {
        this.answered = true;
        // Nothing read in the page before the worker answered: the connection is not needed.
        if (this.reads === undefined) this.stop();
      },
      () => this.stop(),
    );
  }

  get workerStarted(): boolean {
    return this.workerAsked;
  }

  /** Whether a `getSession` made now may still be read by the page. */
  get reading(): boolean {
    return this.reads !== false && !this.answered;
  }

  /** Before a call goes to the worker. */
  calling(operation: string): void {
    if (!READS.has(operation)) this.stop();
    if (operation !== 'hello') this.needWorker();
  }

  /** The session as read by the page (`null`: ask the worker), or `undefined` when it is too late to read here. */
  read(request: GetSessionRequest): Promise<LoadedSession | undefined | null> | undefined {
    const opening = this.opening;
    if (!this.reading || !opening) return undefined;
    // `reading` held, so `reads` is not `false` here.
    if (!this.reads)
      this.reads = import('../sessions/first-read.js').then(
        ({ firstReads }) => firstReads(opening, this.hello),
        (error: unknown) => {
          // The reads' code did not arrive: nobody will read on the connection.
          void opening.then((db) => db?.close());
          throw error;
        },
      );
    const reads = this.reads;
    const inPage = reads.then(
      (reads) => reads.getSession(request),
      () => null,
    );
    // A read still held up well after the worker answered is the worker's to answer, in its time.
    const heldUp = this.hello.then(
      () => new Promise<null>((resolve) => setTimeout(() => resolve(null), HELD_UP_MS)),
      () => null,
    );
    // Answered or not, the worker is needed next: for this read, or for what follows it.
    return Promise.race([inPage, heldUp]).finally(() => this.needWorker());
  }

  /** No more reads in the page: their connection closes after the reads in flight (or unused). */
  stop(): void {
    if (this.reads === false) return;
    if (this.reads)
      void this.reads.then(
        (reads) => reads.close(),
        () => {},
      );
    else void this.opening?.then((db) => db?.close());
    this.reads = false;
  }

  /** The connection ended: no reads, and a worker not started stays so. */
  end(): void {
    this.ended = true;
    this.stop();
  }

  private needWorker(): void {
    if (this.workerAsked || this.ended) return;
    this.workerAsked = true;
    try {
      this.startWorker?.();
    } catch (error) {
      this.startFailed(error);
    } finally {
      this.markStarted();
    }
  }
}

/** `value`'s structured clone; `undefined` for one that cannot be cloned (posting it fails in words). */
export function cloned<T>(value: T): T | undefined {
  try {
    return structuredClone(value);
  } catch {
    return undefined;
  }
}
