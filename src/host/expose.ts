/**
 * The worker side of the boundary. A host answers one connection: it validates
 * everything that arrives (the page is another realm; nothing is trusted),
 * passes it to the engine and sends back a `Result`, so errors keep their class.
 */
import { type Endpoint, expose, releaseProxy } from 'comlink';
import { ARTIFACT_METHODS, type ArtifactBackend } from '../artifacts/protocol.js';
import { InvalidInputError, normalizeStorageError, toWireError, type WireError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { lazy } from '../core/lazy.js';
import { helloRequestSchema, validate } from '../core/schema.js';
import { DEFAULT_DB_NAME } from '../database/defaults.js';
import { DRAFT_METHODS, type DraftBackend } from '../drafts/protocol.js';
import { MEMORY_METHODS, type MemoryBackend } from '../memory/protocol.js';
import { SEARCH_METHODS, type SearchBackend } from '../search/protocol.js';
import { checked as checkedSessions } from '../sessions/checked.js';
import { type AppendBatch, SESSION_METHODS } from '../sessions/protocol.js';
import { appendManySchema } from '../sessions/schema.js';
import { SYNC_METHODS, type SyncBackend } from '../sync/protocol.js';
import type { HelloRequest, HostApi, Result, Served } from './api.js';
import { guardEndpoint } from './guard.js';
import { warmLater } from './lazy.js';
import { PARTS } from './parts.js';
import { StoreEngine } from './store-engine.js';
import { WARM } from './warm.js';

type RemoteCallback = ((processed: number) => Promise<void>) & { [releaseProxy]?: () => void };

async function settle<T>(work: () => Promise<T> | T): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toWireError(normalizeStorageError(error)) };
  }
}

let lifeLock: Promise<string | null> | undefined;

/**
 * A Web Lock held for as long as this realm lives. A client asks for it too and
 * is granted it only when this worker is gone (crashed or terminated), which is
 * how pending calls learn to fail instead of hanging.
 */
function holdLifeLock(): Promise<string | null> {
  lifeLock ??= new Promise((resolve) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks) return resolve(null);
    const name = `idb-adk-sessions:host:${newId()}`;
    locks.request(name, () => {
      resolve(name);
      return new Promise<never>(() => {});
    });
  });
  return lifeLock;
}

/**
 * Runs `work` with the page's progress callback, which arrives as a Comlink
 * proxy (anything else is ignored), released once the work is done.
 */
async function withProgress<T>(
  progress: unknown,
  work: (report: ((processed: number) => void) | undefined) => Promise<T>,
): Promise<T> {
  const remote = typeof progress === 'function' ? (progress as RemoteCallback) : undefined;
  try {
    return await work(
      remote &&
        ((processed) => {
          remote(processed).catch(() => {});
        }),
    );
  } finally {
    remote?.[releaseProxy]?.();
  }
}

/** A part's methods, as the host calls them: with whatever arrived. */
type Part = Record<string, (...args: unknown[]) => unknown>;

/** The host API for one connection; `engineFor` picks the engine a client's hello asks for. */
export function createHost(engineFor: (hello: HelloRequest) => StoreEngine): HostApi {
  let engine: StoreEngine | undefined;
  let stopWatching: (() => void) | undefined;
  const current = (): StoreEngine => {
    if (!engine) throw new InvalidInputError('the client must say hello before any other call');
    return engine;
  };
  const sessions = checkedSessions(current);
  // Artifacts, search, memory and sync are not in start-up: their code is loaded after the first answer
  // (see `warmLater`) or by their first call, whichever comes first. Loading the code builds nothing: a
  // search index is made by the first search, which catches up with what changed before it.
  // Each part is made as the in-thread store makes it (client/lazy-engine.ts), from the same list.
  const part = <T>(load: () => Promise<{ checked(engine: () => StoreEngine): T }>) =>
    lazy(async () => (await load()).checked(current));
  const artifacts = part<ArtifactBackend>(PARTS.artifacts);
  const search = part<SearchBackend>(PARTS.search);
  const memory = part<MemoryBackend>(PARTS.memory);
  const drafts = part<DraftBackend>(PARTS.drafts);
  const sync = part<SyncBackend>(PARTS.sync);
  const host = Object.create(null) as Record<string, (...args: unknown[]) => Promise<Result<unknown>>>;
  /**
   * Serves each method of a capability's table from the part `load` gives. A
   * callback arrives as a Comlink proxy of the page's function (anything else is
   * ignored): an import's progress listener, released when its call ends; with
   * `keep`, the part holds and releases it itself (sync's status listener).
   */
  const serveTable = (methods: Record<string, number>, load: () => unknown, keep?: boolean): void => {
    for (const [method, at] of Object.entries(methods)) {
      host[method] =
        at && !keep
          ? (...args) =>
              settle(() =>
                withProgress(args[at], async (report) => {
                  args[at] = report;
                  return ((await load()) as Part)[method]?.(...args);
                }),
              )
          : (...args) => settle(async () => ((await load()) as Part)[method]?.(...args));
    }
  };
  serveTable(SESSION_METHODS, () => sessions);
  serveTable(ARTIFACT_METHODS, artifacts);
  serveTable(SEARCH_METHODS, search);
  serveTable(MEMORY_METHODS, memory);
  serveTable(DRAFT_METHODS, drafts);
  serveTable(SYNC_METHODS, sync, true);
  const own: Omit<HostApi, keyof Served> & Pick<HostApi, 'stopSync'> = {
    // Stopping a sync that never started loads nothing.
    stopSync: () => settle(async () => (await sync.started())?.stopSync()),
    hello: (request) =>
      settle(async () => {
        engine = engineFor(validate('hello', helloRequestSchema, request));
        void warmLater(WARM);
        return { dbName: engine.dbName, lockName: await holdLifeLock(), methods: Object.keys(host) };
      }),
    appendMany: (request) =>
      settle(() => {
        const batches = validate('appendEvent', appendManySchema, request);
        // Every batch reaches the group queue in this task; each is answered alone.
        return Promise.all(batches.map((batch) => settle(() => sessions.appendEvents(batch as AppendBatch))));
      }),
    goodbye: (closeStore) =>
      settle(async () => {
        stopWatching?.();
        await (await sync.started())?.stopSync();
        if (closeStore === true) await engine?.close();
      }),
    whenClosed: () =>
      settle(
        () =>
          new Promise<WireError>((resolve) => {
            stopWatching?.();
            stopWatching = current().onClose((error) => resolve(toWireError(error)));
          }),
      ),
  };
  Object.assign(host, own);
  // Nothing else to reach on the object itself; `guardEndpoint` keeps callers to these methods.
  return Object.freeze(host) as unknown as HostApi;
}

/** Exposes `host` on `endpoint`, behind the guard that lets only calls of its methods through. */
function serve(host: HostApi, endpoint: Endpoint): void {
  expose(host, guardEndpoint(endpoint, host));
  // Asked for now, so the browser grants it while the first message is still on its way, not after.
  void holdLifeLock();
}

/** `exposeSessionService` for a bare engine: tests, and nothing public (the engine is not API). */
export function exposeEngine(engine: StoreEngine, endpoint: Endpoint = globalThis as unknown as Endpoint): void {
  serve(
    createHost((hello) => {
      if (hello.dbName !== undefined && hello.dbName !== engine.dbName) {
        throw new InvalidInputError(`hello: dbName: this worker serves "${engine.dbName}", not "${hello.dbName}"`);
      }
      return engine;
    }),
    endpoint,
  );
}

const engines = new Map<string, StoreEngine>();

let warmed = false;

/**
 * Has the browser open this origin's database files now, while the first messages are still on
 * their way: after a while without visits that read from disk is most of a cold start, and the
 * database's name, which the open needs, comes only with the hello. Listing the databases
 * creates none.
 */
function warmStorage(): void {
  if (warmed) return;
  warmed = true;
  const factory = globalThis.indexedDB as (IDBFactory & { databases?: () => Promise<unknown> }) | undefined;
  factory?.databases?.().catch(() => {});
}

/**
 * Serves every database a client asks for, one engine per database name shared
 * by all connections of this realm (all tabs, in a SharedWorker). What the
 * bundled worker entry points run.
 */
export function serveSessionStores(endpoint: Endpoint = globalThis as unknown as Endpoint): void {
  warmStorage();
  serve(
    createHost(({ dbName }) => {
      const name = dbName ?? DEFAULT_DB_NAME;
      let engine = engines.get(name);
      if (!engine || engine.closed) {
        engine = new StoreEngine({ dbName: name });
        engines.set(name, engine);
      }
      return engine;
    }),
    endpoint,
  );
}
