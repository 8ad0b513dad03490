/** The bench page: every contender in one page, driven by `bench/run.ts` through `window.bench`. */
import type { BenchApi } from './api.js';
import type { Contender, ContenderId } from './contender.js';
import { DexieStore } from './contender-dexie.js';
import { RawStore } from './contender-raw.js';
import { StoreContender } from './contender-store.js';
import { DATABASES } from './plan.js';
import { buildFixtures, checkSession, fixtureAddress, type Metrics, runWorkload } from './workloads.js';

async function openContender(id: ContenderId): Promise<Contender> {
  switch (id) {
    case 'raw-one-tx':
    case 'raw-tx-per-event':
      return RawStore.open(id, DATABASES[id]);
    case 'dexie': {
      const store = new DexieStore(DATABASES[id]);
      await store.open();
      return store;
    }
    case 'store-in-thread':
      return StoreContender.inThread(DATABASES[id]);
    case 'store-worker':
      return StoreContender.worker(DATABASES[id]);
  }
}

const opened = new Map<ContenderId, Promise<Contender>>();
function contender(id: ContenderId): Promise<Contender> {
  let c = opened.get(id);
  if (!c) {
    c = openContender(id);
    opened.set(id, c);
  }
  return c;
}

const api: BenchApi = {
  info: () => ({
    userAgent: navigator.userAgent,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    getAllRecords: typeof (IDBIndex.prototype as { getAllRecords?: unknown }).getAllRecords === 'function',
  }),
  setup: async (id, sizes) => buildFixtures(await contender(id), sizes),
  measure: async (workload, id, sizes, rep) => runWorkload(workload, await contender(id), sizes, rep),
  coldStart: async (id, sizes) => {
    const started = performance.now();
    const c = await openContender(id);
    const metrics: Metrics = {};
    // When the worker answers, in parallel: an app sends its read without waiting for the worker's hello,
    // and the first answer may come before it (read in the page, see src/sessions/first-read.ts).
    const ready =
      c instanceof StoreContender && id === 'store-worker'
        ? c.ready().then(() => {
            metrics.readyMs = performance.now() - started;
          })
        : undefined;
    const data = await c.getSession(fixtureAddress('cold'));
    const ms = performance.now() - started;
    await ready;
    checkSession(id, 'cold', data, sizes.coldStartEvents, sizes.coldStartEvents);
    await c.close();
    metrics.ms = ms;
    return metrics;
  },
  closeAll: async () => {
    for (const c of opened.values()) await (await c).close();
    opened.clear();
  },
};
window.bench = api;
