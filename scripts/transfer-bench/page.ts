/** The Chromium side: runs one measurement against a store in the mode asked for. */
import { openSessionStore, type StoreMode } from '../../src/index.js';
import { type Figures, measureTransfer } from './measure.js';

declare global {
  interface Window {
    runTransfer(mode: StoreMode, count: number, eventsEach: number): Promise<Figures>;
  }
}

const heapUsed = (): number | undefined =>
  (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;

window.runTransfer = async (mode, count, eventsEach) => {
  const store = openSessionStore({ dbName: `transfer-bench-${mode}-${Date.now()}`, mode });
  try {
    return await measureTransfer(store, count, eventsEach, heapUsed);
  } finally {
    await store.close();
  }
};
