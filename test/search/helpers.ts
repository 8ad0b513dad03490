/** Set-up shared by the search tests: a store over a fresh fake IndexedDB, and events with text. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { IndexedDbSessionService, type IndexedDbSessionServiceOptions, type Session } from '../../src/index.js';

let n = 0;

/** A fresh database; `open()` gives a store over it (call again for another tab, or the next start after a crash). */
export function freshDatabase(options: IndexedDbSessionServiceOptions = {}) {
  const dbName = `search-${++n}`;
  const indexedDB = new IDBFactory();
  const open = (more: IndexedDbSessionServiceOptions = {}) =>
    new IndexedDbSessionService({ dbName, indexedDB, IDBKeyRange, ...options, ...more });
  return { dbName, indexedDB, open };
}

export function freshStore(options: IndexedDbSessionServiceOptions = {}): IndexedDbSessionService {
  return freshDatabase(options).open();
}

export const textEvent = (id: string, text: string, author = 'user', timestamp = Date.now()) => ({
  id,
  invocationId: `inv-${id}`,
  author,
  timestamp,
  content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
});

/** Appends one text event per entry of `texts` (ids `e0`, `e1`, … unless given as `[id, text]`). */
export async function say(
  store: Pick<IndexedDbSessionService, 'appendEvent'>,
  session: Session,
  texts: readonly (string | [string, string])[],
): Promise<void> {
  for (const [i, entry] of texts.entries()) {
    const [id, text] = typeof entry === 'string' ? [`${session.id}-e${i}`, entry] : entry;
    await store.appendEvent({ session, event: textEvent(id, text) });
  }
}
