/**
 * The worker's side of sync: one sync engine per store engine, shared by every
 * connection (the tabs of a SharedWorker) that starts it with the same options.
 */
import { InvalidInputError } from '../errors.js';
import { validate } from '../schema.js';
import type { StoreEngine } from '../store/engine.js';
import { type SyncBackend, type SyncStartRequest, syncStartSchema } from './protocol.js';
import type { SyncStatus } from './status.js';
import { SyncEngine } from './sync-engine.js';

interface Running {
  engine: SyncEngine;
  options: string;
  users: number;
}

const running = new WeakMap<StoreEngine, Running>();

/** The sync methods of one connection to the store `current` gives. */
export function syncMethods(current: () => StoreEngine): SyncBackend {
  let mine: { store: StoreEngine; run: Running; unsubscribe: () => void } | undefined;
  const leave = async (): Promise<void> => {
    if (!mine) return;
    const { store, run, unsubscribe } = mine;
    mine = undefined;
    unsubscribe();
    run.users -= 1;
    if (run.users === 0) {
      running.delete(store);
      await run.engine.stop();
    }
  };
  return {
    async startSync(request: SyncStartRequest, onStatus: (status: SyncStatus) => void) {
      const options = validate('sync', syncStartSchema, request);
      if (typeof onStatus !== 'function') throw new InvalidInputError('sync: onStatus must be a function');
      await leave();
      const store = current();
      const key = JSON.stringify(options);
      let run = running.get(store);
      if (run && run.options !== key) {
        running.delete(store);
        await run.engine.stop();
        run = undefined;
      }
      if (!run) {
        run = { engine: new SyncEngine(store, options).start(), options: key, users: 0 };
        running.set(store, run);
      }
      run.users += 1;
      const unsubscribe = run.engine.onStatus((status) => {
        Promise.resolve(onStatus(status)).catch(() => {});
      });
      mine = { store, run, unsubscribe };
      return run.engine.status();
    },
    async syncNow() {
      if (!mine) throw new InvalidInputError('syncNow: sync is not started on this connection');
      return mine.run.engine.syncNow();
    },
    stopSync: leave,
  };
}
