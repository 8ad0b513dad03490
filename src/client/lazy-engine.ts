/**
 * The in-thread store's engine, loaded on its first call: a page that runs the
 * store in a worker never downloads the engine, its schemas or any IndexedDB
 * code, and one that chooses `'in-thread'` fetches them once, when first used.
 * Requests pass the same boundary check a worker applies. `new
 * IndexedDbSessionService` hands it an engine already made; either way the
 * capabilities (artifacts, search, memory, sync) load on first use, as in a
 * worker, and their modules are fetched soon after the engine, so their first
 * use needs no network.
 */

import type { ArtifactEngineOptions } from '../artifacts/engine.js';
import { ARTIFACT_METHODS, type ArtifactBackend } from '../artifacts/protocol.js';
import { CloseSignal } from '../core/close-signal.js';
import { InvalidInputError, StorageError, StoreClosedError } from '../core/errors.js';
import { type Lazy, lazy } from '../core/lazy.js';
import { DEFAULT_DB_NAME } from '../database/defaults.js';
import { DRAFT_METHODS, type DraftBackend } from '../drafts/protocol.js';
import { PARTS as CHECKED } from '../host/parts.js';
import type { EngineOptions, StoreEngine } from '../host/store-engine.js';
import { MEMORY_METHODS, type MemoryBackend } from '../memory/protocol.js';
import { SEARCH_METHODS, type SearchBackend } from '../search/protocol.js';
import { type Backend, SESSION_METHODS } from '../sessions/protocol.js';
import type { SyncBackend, SyncStartOptions } from '../sync/protocol.js';
import type { SyncStatus } from '../sync/status.js';
import type { StoreBackend } from './store.js';

type Part = 'sessions' | 'artifacts' | 'search' | 'memory' | 'drafts';

/**
 * Each capability's boundary check, loaded on first use and made as the worker
 * host makes it, from the same list (host/parts.ts), over this store's engine.
 */
type Checked = { checked: (engine: () => StoreEngine, options: ArtifactEngineOptions) => unknown };
const PARTS: Record<Part, () => Promise<Checked>> = {
  sessions: () => import('../sessions/checked.js'),
  artifacts: CHECKED.artifacts,
  search: CHECKED.search,
  memory: CHECKED.memory,
  drafts: CHECKED.drafts,
};

/** The capabilities' code too, soon after the engine, while the page is still online (see host/lazy.ts). */
function warmCapabilities(): void {
  import('./warm-in-thread.js').then(({ warmInThread }) => warmInThread()).catch(() => {});
}

/** A failed download as a `StorageError`; a closed store's refusal as it is. */
function loadFailure(what: string, error: unknown): Error {
  return error instanceof StoreClosedError || error instanceof StorageError
    ? error
    : new StorageError(`the store's ${what} could not be loaded: ${String(error)}`, { cause: error });
}

type Parts = Omit<Backend, 'close'> & ArtifactBackend & SearchBackend & MemoryBackend & DraftBackend;
export interface LazyEngine extends Parts {}

/** An engine made by the caller (`new IndexedDbSessionService`), with its checked session requests. */
export interface GivenEngine {
  engine: StoreEngine;
  sessions: Backend;
}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: its methods are made below, from the lists
export class LazyEngine implements StoreBackend {
  readonly dbName: string;
  /** Loaded as the worker host loads its parts (`core/lazy.ts`): once, and again after a failed download. */
  private readonly engine: Lazy<StoreEngine>;
  private readonly parts: Partial<Record<Part, Lazy<unknown>>> = {};
  private sync: SyncBackend | undefined;
  private closing = false;
  private readonly ended = new CloseSignal();

  constructor(
    private readonly options: EngineOptions & ArtifactEngineOptions,
    given?: GivenEngine,
  ) {
    this.dbName = options.dbName ?? DEFAULT_DB_NAME;
    this.engine = lazy(() =>
      given
        ? Promise.resolve(given.engine)
        : import('../host/store-engine.js').then(
            ({ StoreEngine }) => {
              warmCapabilities();
              const engine = new StoreEngine(this.options);
              this.watch(engine);
              return engine;
            },
            (error: unknown) => {
              throw loadFailure('engine', error);
            },
          ),
    );
    if (given) {
      void this.engine();
      this.parts.sessions = lazy(() => Promise.resolve(given.sessions));
      this.watch(given.engine);
      warmCapabilities();
    }
  }

  /** Resolves once the engine's code is loaded (loading it now if need be); a store closed first rejects. */
  get ready(): Promise<void> {
    const ready = (this.engine.started() ?? this.load()).then(() => {});
    // Reading `ready` without awaiting it must not report an unhandled rejection; awaiting it still rejects.
    ready.catch(() => {});
    return ready;
  }

  /** True once closed: by `close()`, or the engine from outside (another tab's upgrade or deletion). */
  get closed(): boolean {
    return this.ended.error !== undefined;
  }

  /** Calls `listener` once when the store closes for good; at once if it already has. */
  onClose(listener: (error: StoreClosedError) => void): () => void {
    return this.ended.on(listener);
  }

  /** The engine's own reason wins (an upgrade elsewhere, `close()`): it is the one its calls reject with. */
  private watch(engine: StoreEngine): void {
    engine.onClose((error) => this.ended.fire(error));
  }

  /**
   * Must reject with `StoreClosedError` after `close()`, loaded or not; a failed
   * download is a `StorageError` and the next call tries again (a flaky network
   * must not break the store for the page's lifetime).
   */
  private load(): Promise<StoreEngine> {
    if (this.closing || this.ended.error) {
      return Promise.reject(this.ended.error ?? new StoreClosedError('the store is closed'));
    }
    return this.engine();
  }

  /**
   * A capability's requests (sessions, artifacts, search, memory) behind the
   * boundary check, its module fetched on first use like the engine, and again after a
   * failed download.
   */
  part<T>(slot: Part): Promise<T> {
    this.parts[slot] ??= lazy(() =>
      Promise.all([this.load(), PARTS[slot]()]).then(
        ([engine, loaded]) => loaded.checked(() => engine, this.options),
        (error: unknown) => {
          throw loadFailure(
            slot === 'sessions' ? 'engine' : `${slot === 'artifacts' ? 'artifact' : slot} engine`,
            error,
          );
        },
      ),
    );
    return this.parts[slot]() as Promise<T>;
  }

  /** Sync's engine is loaded with its first start, like the store's; in this thread it takes callbacks. */
  async startSync(request: SyncStartOptions, onStatus: (status: SyncStatus) => void) {
    const [engine, sync] = await Promise.all([this.load(), CHECKED.sync()]);
    this.sync ??= sync.checked(() => engine, { callbacks: true });
    return this.sync.startSync(request, onStatus);
  }
  async syncNow() {
    if (!this.sync) throw new InvalidInputError('syncNow: sync is not started');
    return this.sync.syncNow();
  }
  async stopSync() {
    await this.sync?.stopSync();
  }
  /** Closing a store that was never used loads nothing; one whose engine never loaded has nothing to close. */
  async close(): Promise<void> {
    this.closing = true;
    await this.sync?.stopSync();
    const engine = await this.engine.started()?.catch(() => undefined);
    await engine?.close();
    this.ended.fire(new StoreClosedError(`the store for database "${this.dbName}" is closed`));
  }
}

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;
const prototype = LazyEngine.prototype as unknown as Methods;
for (const [slot, methods] of [
  ['sessions', SESSION_METHODS],
  ['artifacts', ARTIFACT_METHODS],
  ['search', SEARCH_METHODS],
  ['memory', MEMORY_METHODS],
  ['drafts', DRAFT_METHODS],
] as const) {
  for (const method of Object.keys(methods)) {
    prototype[method] = async function (this: LazyEngine, ...args) {
      return (await this.part<Methods>(slot))[method]?.(...args);
    };
  }
}
