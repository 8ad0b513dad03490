/** The contract suites' way to run a test on a fresh store of the kind under test, closed after it whatever happens. */
import type { SessionStore } from '../../src/index.js';

export function storeRunner(open: () => SessionStore) {
  return async (test: (store: SessionStore) => Promise<void>): Promise<void> => {
    const store = open();
    try {
      await test(store);
    } finally {
      await store.close();
    }
  };
}
