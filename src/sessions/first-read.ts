/**
 * The page's first reads. A page that opens the store and reads a session at once
 * would otherwise wait for the store's worker to start, which takes longer than the
 * read. `getSession` calls the page makes before the worker answers are read here
 * instead, in the page's thread, on a connection of their own, by the engine's own
 * read (`readSessionIn`), so the answer is the one the worker would give. What
 * keeps that true:
 * - only a database at exactly this code's schema version is read; the page never
 *   creates or upgrades one (client/first-open.ts);
 * - only a request of the plain shape is read here (ids the boundary check accepts,
 *   no read from the latest compaction); bad input goes to the worker, whose check
 *   words the errors;
 * - it reads committed data in one read-only transaction, as the worker does (the
 *   client stops reading here at its first call that writes, so its own writes
 *   are never overtaken);
 * - the connection closes once the worker is up and the reads in flight are done,
 *   and at once when another tab upgrades or deletes the database (client/first-open.ts
 *   opens it; client/early-reads.ts starts the worker after the first read).
 * Every other case, and any failure here, answers `null`: ask the worker. A store
 * that encrypts at rest (planned) must not read here: its keys never leave the worker.
 */
import { isWellFormedId } from '../core/ids.js';
import { isPlainObject } from '../core/json.js';
import { Db, realmOf } from '../database/idb/index.js';
import { ALL_STORES, type StoreSchema } from '../database/records/index.js';
import type { GetSessionConfig, GetSessionRequest } from '../types.js';
import type { LoadedSession } from './protocol.js';
import { loadedAsText, readSessionIn } from './reads.js';

/** Reads served in the page while its store's worker starts. */
export interface FirstReads {
  /** The session as `getSession` answers it (`undefined`: none), or `null`: not read here, ask the worker. */
  getSession(request: GetSessionRequest): Promise<LoadedSession | undefined | null>;
  /** Releases the connection (after the reads in flight); later reads answer `null`. */
  close(): void;
}

const KEYS = new Set(['appName', 'userId', 'sessionId', 'config']);
const CONFIG_KEYS = new Set(['numRecentEvents', 'afterTimestamp', 'fromLatestCompaction']);

/** `request` when it has the plain shape read here (see the contract above), else `undefined`. */
function plainRequest(request: unknown): GetSessionRequest | undefined {
  if (!isPlainObject(request) || !Object.keys(request).every((k) => KEYS.has(k))) return undefined;
  const { appName, userId, sessionId, config } = request;
  if (!isWellFormedId(appName) || !isWellFormedId(userId) || !isWellFormedId(sessionId)) return undefined;
  if (config === undefined) return { appName, userId, sessionId };
  if (!isPlainObject(config) || !Object.keys(config).every((k) => CONFIG_KEYS.has(k))) return undefined;
  const { numRecentEvents: n, afterTimestamp: after, fromLatestCompaction: compaction } = config;
  if (n !== undefined && !(Number.isSafeInteger(n) && (n as number) >= 0)) return undefined;
  if (after !== undefined && !Number.isFinite(after)) return undefined;
  if (compaction !== undefined && compaction !== false) return undefined;
  const plain: GetSessionConfig = {
    ...(n !== undefined && { numRecentEvents: n as number }),
    ...(after !== undefined && { afterTimestamp: after as number }),
  };
  return { appName, userId, sessionId, config: plain };
}

class PageReads implements FirstReads {
  private readonly db: Promise<Db<StoreSchema> | undefined>;
  private inFlight = 0;
  private workerUp = false;
  private closed = false;

  constructor(opening: Promise<IDBDatabase | undefined>, workerAnswered: Promise<unknown>) {
    this.db = opening.then((native) => {
      if (native && !this.closed) return new Db<StoreSchema>(realmOf(indexedDB), native);
      native?.close();
      return undefined;
    });
    const up = (): void => {
      this.workerUp = true;
      this.release();
    };
    workerAnswered.then(up, up);
  }

  async getSession(request: GetSessionRequest): Promise<LoadedSession | undefined | null> {
    const plain = plainRequest(request);
    if (!plain || this.closed) return null;
    this.inFlight++;
    try {
      const db = await this.db;
      if (!db || this.closed) return null;
      const read = await readSessionIn(db.transaction(ALL_STORES, 'readonly'), plain, undefined);
      return read && loadedAsText(read);
    } catch {
      // A connection closed under the read, a transaction refused: the worker answers instead.
      return null;
    } finally {
      this.inFlight--;
      this.release();
    }
  }

  private release(): void {
    if (this.workerUp && this.inFlight === 0) this.close();
  }

  close(): void {
    this.closed = true;
    void this.db.then((db) => db?.close());
  }
}

/**
 * The reads a page makes before its store's worker answers (`workerAnswered`
 * settles then, either way), on the connection `opening` gives (client/first-open.ts),
 * which they then own.
 */
export function firstReads(opening: Promise<IDBDatabase | undefined>, workerAnswered: Promise<unknown>): FirstReads {
  return new PageReads(opening, workerAnswered);
}
