/**
 * Whether a draft is being written. The tab writing a draft holds a Web Lock
 * named for it, from `begin` (or `resume`) to `finish` (or `abandon`); the
 * browser releases it when that tab or worker dies, however it dies. So a draft
 * whose lock is free was interrupted, taking it over is taking its lock, and a
 * reader that wants to know when a writer dies waits for the lock. Where there
 * are no Web Locks (Node), the writers of this realm are the only ones there can
 * be, and a registry shared by every copy of the library in the realm stands in.
 */
import type { DraftKeyRequest } from './protocol.js';

const REGISTRY = Symbol.for('idb-adk-sessions.draft-locks');

type Locks = {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal; mode?: 'shared' | 'exclusive' },
    callback: (lock: unknown) => Promise<void>,
  ): Promise<void>;
  query(): Promise<{ held?: { name?: string; mode?: string }[] }>;
};

/** The draft locks a writer holds (exclusive): a waiter's brief shared hold is not a writer. */
async function writersHolding(api: Locks): Promise<Set<string | undefined>> {
  const { held = [] } = await api.query();
  return new Set(held.filter((lock) => lock.mode !== 'shared').map((lock) => lock.name));
}

const locks = (): Locks | undefined => (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks ?? undefined;

function registry(): Set<string> {
  const realm = globalThis as { [REGISTRY]?: Set<string> };
  realm[REGISTRY] ??= new Set();
  return realm[REGISTRY];
}

/** The lock of a draft of database `dbName`. */
export const draftLock = (dbName: string, r: DraftKeyRequest): string =>
  `idb-adk-sessions:draft:${JSON.stringify([dbName, r.appName, r.userId, r.sessionId, r.draftId])}`;

/** Takes lock `name`, held until the returned release is called; `undefined` when another holds it. */
export async function holdDraft(name: string): Promise<(() => void) | undefined> {
  const local = registry();
  if (local.has(name)) return undefined;
  const api = locks();
  let release = (): void => {};
  if (api) {
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const take = (ifAvailable: boolean) =>
      new Promise<boolean>((answer, refused) => {
        api
          .request(name, { ifAvailable }, (lock) => {
            answer(lock !== null);
            return lock === null ? Promise.resolve() : held;
          })
          .catch(refused);
      });
    // Not free: a writer holds it, or only a waiter (`whenDraftFree`), which lets go at once.
    if (!(await take(true)) && ((await writersHolding(api)).has(name) || !(await take(false)))) return undefined;
  }
  local.add(name);
  return () => {
    local.delete(name);
    release();
  };
}

/** A test of which draft locks are held, as of now. */
export async function heldDrafts(): Promise<(name: string) => boolean> {
  const local = registry();
  const api = locks();
  if (!api) return (name) => local.has(name);
  const names = await writersHolding(api);
  return (name) => local.has(name) || names.has(name);
}

/**
 * Resolves when lock `name` is free (its writer finished or died), or never where
 * there are no Web Locks. `signal` withdraws the wait. Asked for shared, so waiters
 * never exclude each other, and a reader seeing it held knows it is no writer; let go
 * at once when granted.
 */
export function whenDraftFree(name: string, signal: AbortSignal): Promise<void> {
  const api = locks();
  if (!api) return new Promise(() => {});
  return api.request(name, { signal, mode: 'shared' }, async () => {}).catch(() => new Promise(() => {}));
}
