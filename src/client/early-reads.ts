/**
 * The page's side of its first reads (sessions/first-read.ts) and of a worker
 * started when needed (./later-worker.ts), for `RemoteBackend`. `getSession`
 * calls made before the worker answered are read by the page, on the connection
 * `opening` gives (./first-open.ts), until the first call of any other kind: the
 * page never answers in place of the worker after one of its own writes. The
 * worker is started after the first read is answered, by the first call only it
 * serves, or once `opening` is done if nothing was read by then.
 */
import type { FirstReads } from '../sessions/first-read.js';
import type { LoadedSession } from '../sessions/protocol.js';
import type { GetSessionRequest } from '../types.js';

export class EarlyReads {
  /** The reads' code and connection, once a read asked for them; `false` once reads must stop. */
  private reads: Promise<FirstReads> | false | undefined;
  private answered = false;
  private ended = false;
  /** The worker was started, or asked to start: a goodbye can reach it. */
  private workerAsked: boolean;
  /** Settles when the worker answered the hello, or never will. */
  private hello: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly opening: Promise<IDBDatabase | undefined> | undefined,
    private readonly startWorker: (() => void) | undefined,
  ) {
    this.workerAsked = startWorker === undefined;
    if (!opening) this.reads = false;
    void opening?.then(() => {
      if (this.reads === undefined) this.needWorker();
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
      () => {},
    );
  }

  get workerStarted(): boolean {
    return this.workerAsked;
  }

  /** Before a call goes to the worker. */
  calling(operation: string): void {
    if (operation !== 'hello' && operation !== 'getSession') this.stop();
    if (operation !== 'hello') this.needWorker();
  }

  /** The session as read by the page (`null`: ask the worker), or `undefined` when it is too late to read here. */
  read(request: GetSessionRequest): Promise<LoadedSession | undefined | null> | undefined {
    const opening = this.opening;
    if (this.reads === false || this.answered || !opening) return undefined;
    this.reads ??= import('../sessions/first-read.js').then(({ firstReads }) => firstReads(opening, this.hello));
    // Answered or not, the worker is needed next: for this read, or for what follows it.
    return this.reads
      .then(
        (reads) => reads.getSession(request),
        () => null,
      )
      .finally(() => this.needWorker());
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
    this.startWorker?.();
  }
}
