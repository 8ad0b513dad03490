/**
 * The sync requests behind the store's boundary check, as a worker host serves
 * them and an in-thread store calls them: a start's options validated (with
 * `startOptions`), then one sync engine per store engine, shared by every
 * connection (the tabs of a SharedWorker) that starts it with the same options.
 * A start with other options replaces it: the connections that had joined the
 * old one get a last status `{ phase: 'stopped', lastError: { kind: 'refused' } }`
 * saying so, and their `syncNow` answers that status until they start again.
 */
import { releaseProxy } from 'comlink';
import { InvalidInputError } from '../core/errors.js';
import { validate } from '../core/schema.js';
import type { SyncBackend, SyncStartOptions } from './protocol.js';
import { syncStartSchema } from './schema.js';
import type { SyncStatus } from './status.js';
import { SyncEngine, type SyncHost, type SyncOptions } from './sync-engine.js';

interface Running {
  engine: SyncEngine;
  options: string;
  users: number;
  /** Settles once the engine runs: after the one it replaced has stopped, so two never run on one store. */
  started: Promise<void>;
}

export const REPLACED =
  'sync was started on this store with other options (another user, token or server); this sync stopped';

const running = new WeakMap<SyncHost, Running>();

/** A number per function given as an option: two starts with different callbacks are different options. */
const functionIds = new WeakMap<object, number>();
let functionCount = 0;
const idOf = (f: object): number => {
  let id = functionIds.get(f);
  if (id === undefined) {
    id = ++functionCount;
    functionIds.set(f, id);
  }
  return id;
};

/**
 * The options a start asks for, validated. `callbacks` (a store in this
 * thread, never a port) also takes a conflict callback and a `fetch`, which
 * the schema of what may cross a port does not know.
 */
function startOptions(request: SyncStartOptions, callbacks: boolean): { options: SyncOptions; key: string } {
  let conflict: unknown;
  let ownFetch: unknown;
  let data: unknown = request;
  if (callbacks && typeof request === 'object' && request !== null) {
    try {
      ({ conflict, fetch: ownFetch } = request);
      if (typeof conflict === 'function' || ownFetch !== undefined) {
        const { conflict: _c, fetch: _f, ...rest } = request;
        data = typeof conflict === 'function' ? rest : { ...rest, conflict };
      }
    } catch (error) {
      throw new InvalidInputError(`sync: request: cannot be read (${String(error)})`);
    }
    if (ownFetch !== undefined && typeof ownFetch !== 'function') {
      throw new InvalidInputError('sync: fetch: must be a function');
    }
  }
  const options: SyncOptions = validate('sync', syncStartSchema, data);
  const functions: object[] = [];
  if (typeof conflict === 'function') {
    options.conflict = conflict as SyncOptions['conflict'];
    functions.push(conflict);
  }
  if (typeof ownFetch === 'function') {
    options.fetch = ownFetch as typeof fetch;
    functions.push(ownFetch);
  }
  return { options, key: JSON.stringify([options, functions.map(idOf)]) };
}

/**
 * The sync methods of one connection to the store `current` gives (it may
 * throw, as a host's does before hello). With `callbacks` (an in-thread store),
 * a start may pass functions (see `startOptions`).
 */
export function checked(current: () => SyncHost, { callbacks = false } = {}): SyncBackend {
  let mine: { store: SyncHost; run: Running; unsubscribe: () => void } | undefined;
  const leave = async (): Promise<void> => {
    if (!mine) return;
    const { store, run, unsubscribe } = mine;
    mine = undefined;
    unsubscribe();
    run.users -= 1;
    if (run.users === 0) {
      // A run replaced meanwhile is no longer the store's: the newer one stays.
      if (running.get(store) === run) running.delete(store);
      await run.started;
      await run.engine.stop();
    }
  };
  return {
    async startSync(request: SyncStartOptions, onStatus: (status: SyncStatus) => void) {
      const { options, key } = startOptions(request, callbacks);
      if (typeof onStatus !== 'function') throw new InvalidInputError('sync: onStatus must be a function');
      await leave();
      const store = current();
      let run = running.get(store);
      if (!run || run.options !== key) {
        const old = run;
        const engine = new SyncEngine(store, options);
        // Registered before any await, so a start arriving meanwhile joins this run instead of making another.
        run = {
          engine,
          options: key,
          users: 0,
          started: (async () => {
            if (old) {
              await old.started;
              await old.engine.stop(REPLACED);
            }
            engine.start();
          })(),
        };
        running.set(store, run);
      }
      run.users += 1;
      const unsubscribe = run.engine.onStatus((status) => {
        Promise.resolve(onStatus(status)).catch(() => {});
      });
      // Across a worker port the callback is a Comlink proxy holding a port open: released with the connection's sync.
      const release = (onStatus as { [releaseProxy]?: unknown })[releaseProxy];
      mine = {
        store,
        run,
        unsubscribe: () => {
          unsubscribe();
          if (typeof release === 'function') (release as () => void)();
        },
      };
      await run.started;
      return run.engine.status();
    },
    async syncNow() {
      if (!mine) throw new InvalidInputError('syncNow: sync is not started on this connection');
      await mine.run.started;
      return mine.run.engine.syncNow();
    },
    stopSync: leave,
  };
}
