/**
 * The store's worker, started when it is first needed rather than with the
 * store: a module worker starting takes the machine for tens of milliseconds,
 * and the page's first read (sessions/first-read.ts) took nearly twice as long
 * beside it. ./early-reads.ts says when. Until then this stands in for the
 * worker and its port: what is posted and the listeners added are handed over
 * when it starts, in order.
 */
import type { Endpoint } from 'comlink';

type Added = Parameters<EventTarget['addEventListener']>;

/** An event target whose listeners wait for the real one. */
class StandIn {
  protected target: EventTarget | undefined;
  private readonly waiting: Added[] = [];

  addEventListener(...added: Added): void {
    if (this.target) this.target.addEventListener(...added);
    else this.waiting.push(added);
  }

  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (this.target) this.target.removeEventListener(type, listener);
    else {
      const at = this.waiting.findIndex(([t, l]) => t === type && l === listener);
      if (at >= 0) this.waiting.splice(at, 1);
    }
  }

  attach(target: EventTarget): void {
    this.target = target;
    for (const added of this.waiting.splice(0)) target.addEventListener(...added);
  }
}

/** The port side: messages posted before the start are posted then, in order. */
class PortStandIn extends StandIn implements Endpoint {
  private port: Endpoint | undefined;
  private readonly posted: [unknown, Transferable[] | undefined][] = [];

  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (this.port) this.port.postMessage(message, transfer);
    else this.posted.push([message, transfer]);
  }

  attachPort(port: Endpoint & EventTarget): void {
    this.attach(port);
    this.port = port;
    for (const [message, transfer] of this.posted.splice(0)) port.postMessage(message, transfer);
  }
}

export class LaterWorker {
  /** Where messages go and come from: the worker itself, or a shared worker's port. */
  readonly port = new PortStandIn();
  /** The worker object, for its `error` event (a shared worker's; a dedicated one's arrive on `port`). */
  readonly worker = new StandIn();
  private started: Worker | SharedWorker | undefined;

  constructor(private readonly make: () => Worker | SharedWorker) {}

  /** Starts the worker, once; what was posted and listened for so far goes to it. */
  start(): void {
    if (this.started) return;
    const worker = this.make();
    this.started = worker;
    if (typeof SharedWorker !== 'undefined' && worker instanceof SharedWorker) {
      this.worker.attach(worker);
      this.port.attachPort(worker.port as unknown as Endpoint & EventTarget);
      worker.port.start();
    } else this.port.attachPort(worker as unknown as Endpoint & EventTarget);
  }

  /** Ends a started worker (terminated, or its port closed); one never started stays so. */
  release(): void {
    const worker = this.started;
    if (typeof SharedWorker !== 'undefined' && worker instanceof SharedWorker) worker.port.close();
    else (worker as Worker | undefined)?.terminate();
  }
}
