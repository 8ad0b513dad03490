/**
 * Apps' and users' session counts (the `appState` and `userState` records),
 * raised for sessions written in a transaction: each record read and written
 * once however many of the sessions it counts, started at 0 when missing.
 */
import type { Store } from '../idb/index.js';
import { keyString } from '../keys.js';
import type { StoreSchema } from './index.js';

type Counted = StoreSchema['appState'] | StoreSchema['userState'];
type CountsTx = { objectStore(name: 'appState' | 'userState'): Store<Counted> };

/** Adds the sessions `added` (one entry per session) to their apps' and users' counts, in `tx`. */
export async function addSessions(tx: CountsTx, added: readonly { appName: string; userId: string }[]): Promise<void> {
  const by = new Map<string, { name: 'appState' | 'userState'; fields: Counted['value']; n: number }>();
  const count = (name: 'appState' | 'userState', fields: Counted['value']) => {
    const k = keyString([name, fields.appName, (fields as { userId?: string }).userId ?? '']);
    const entry = by.get(k) ?? { name, fields, n: 0 };
    entry.n++;
    by.set(k, entry);
  };
  for (const { appName, userId } of added) {
    count('appState', { appName, sessionCount: 0 });
    count('userState', { appName, userId, sessionCount: 0 });
  }
  await Promise.all(
    [...by.values()].map(async ({ name, fields, n }) => {
      const store = tx.objectStore(name);
      const key = 'userId' in fields ? [fields.appName, fields.userId] : fields.appName;
      const stored = await store.get(key as never);
      store.put({ ...(stored ?? fields), sessionCount: (stored?.sessionCount ?? 0) + n });
    }),
  );
}
