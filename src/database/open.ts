/**
 * Opening the database: the versioned schema, its upgrade steps, and what
 * happens when other connections get in the way.
 */
import { StoreClosedError, UpgradeBlockedError } from '../core/errors.js';
import { Db, realmOf, settle } from './idb/index.js';
import type { StoreSchema } from './records/index.js';
import { placeState } from './records/state.js';

/**
 * Upgrade steps: entry `n` turns a version `n - 1` database into version `n`.
 * Append a step for every schema change; never edit a released one. A test opens
 * a database built by a fixture of every earlier layout.
 */
export type UpgradeStep = (db: IDBDatabase, tx: IDBTransaction) => void;

const upgrades: UpgradeStep[] = [
  () => {},
  (db) => {
    const sessions = db.createObjectStore('sessions', {
      keyPath: ['appName', 'userId', 'id'],
    });
    sessions.createIndex('byAppTime', ['appName', 'lastUpdateTime', 'id', 'userId'], { unique: true });
    sessions.createIndex('byUserTime', ['appName', 'userId', 'lastUpdateTime', 'id'], { unique: true });
    const events = db.createObjectStore('events', { keyPath: ['uid', 'seq'] });
    events.createIndex('byId', ['uid', 'id'], { unique: true });
    events.createIndex('byTime', ['uid', 'timestamp']);
    db.createObjectStore('appState', { keyPath: 'appName' });
    db.createObjectStore('userState', { keyPath: ['appName', 'userId'] });
  },
  // Artifacts (src/artifacts): one record per version, its bytes as a Blob.
  (db) => {
    db.createObjectStore('artifacts', { keyPath: ['appName', 'userId', 'scope', 'filename', 'version'] });
  },
  // Search (src/search): each app and user's full-text index, in shards; memory (src/memory): what was added to it.
  (db) => {
    db.createObjectStore('searchShards', { keyPath: ['appName', 'userId', 'shard'] });
    db.createObjectStore('memories', { keyPath: ['appName', 'userId', 'sessionId', 'eventId'] });
    db.createObjectStore('memoryVersions', { keyPath: ['appName', 'userId'] });
  },
  // Sync (src/sync): per session, how much of it is in the server's order; per user, the feed cursor.
  (db) => {
    db.createObjectStore('syncSessions', { keyPath: ['appName', 'userId', 'id'] });
    db.createObjectStore('syncUsers', { keyPath: ['appName', 'userId'] });
  },
  // State per key (records/state.ts): each session's, app's and user's `state` object becomes a record
  // per key. Done inside the upgrade's own transaction, which commits whole or not at all: a crash
  // part-way leaves the previous version, and the next open runs the step again from the start.
  (db, tx) => {
    const state = db.createObjectStore('state', { keyPath: 'k' });
    // A scope's prefix is its tag, the initial of the store it was kept in, and the record's key (records/state.ts).
    for (const name of ['sessions', 'appState', 'userState']) {
      const tag = name[0];
      tx.objectStore(name).openCursor().onsuccess = function (this: IDBRequest<IDBCursorWithValue | null>) {
        const cursor = this.result;
        if (!cursor) return;
        const { state: kept = {}, ...rest } = cursor.value;
        // A session keeps its light values in its head (records/state.ts).
        const head = tag === 's' ? { ...rest, state: {} } : rest;
        const heavy = tag === 's' ? placeState(head, kept).heavy : kept;
        for (const key of Object.keys(heavy)) state.put({ k: [tag, cursor.primaryKey, key].flat(), v: heavy[key] });
        cursor.update(head);
        cursor.continue();
      };
    }
  },
  // Drafts (src/drafts): replies being written as they stream, a head and its chunks per draft.
  (db) => {
    db.createObjectStore('drafts', { keyPath: 'k' });
    db.createObjectStore('draftChunks', { keyPath: 'k' });
  },
];

/** The version the steps lead to; test/node/schema-upgrade.test.ts holds it equal to their count. */
export { SCHEMA_VERSION } from './version.js';

/** The shipped steps, for tests that play a newer release by appending steps of their own. */
export const shippedUpgrades: readonly UpgradeStep[] = upgrades;

export interface OpenOptions {
  indexedDB: IDBFactory;
  /** The factory's own `IDBKeyRange`, when it is not the global one. */
  IDBKeyRange?: typeof IDBKeyRange;
  name: string;
  /** How long to wait for other tabs to release an older version before failing. */
  blockedTimeoutMs: number;
  /** Called once if the open connection is later closed from outside (upgrade, deletion, browser). */
  onExternalClose: (error: StoreClosedError) => void;
  /** Tests only: the upgrade steps in place of the shipped ones (the version is their count). */
  upgrades?: readonly UpgradeStep[];
}

/**
 * Opens (creating or upgrading) the database. Must reject with
 * `UpgradeBlockedError` rather than hang when the open waits longer than
 * `blockedTimeoutMs` on other connections: an older version held open by a
 * tab that will not close (a `blocked` event), or a deletion queued ahead of it
 * (no event at all). The clock stops once an upgrade actually runs. A
 * connection that opens after the deadline is closed at once, so it cannot
 * block anyone in turn.
 */
export function openDatabase(options: OpenOptions): Promise<Db<StoreSchema>> {
  const { indexedDB, name, blockedTimeoutMs, onExternalClose } = options;
  const steps = options.upgrades ?? upgrades;
  const target = steps.length - 1;
  let request: IDBOpenDBRequest;
  try {
    request = indexedDB.open(name, target);
  } catch (error) {
    return Promise.reject(error);
  }

  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(
        new UpgradeBlockedError(
          `opening database "${name}" at version ${target} waited ${blockedTimeoutMs} ms for other connections: another tab holds an older version open or is deleting the database; close or reload the other tabs`,
        ),
      );
    }, blockedTimeoutMs);
  });

  request.addEventListener('upgradeneeded', (event) => {
    clearTimeout(timer);
    const db = request.result;
    const tx = request.transaction as IDBTransaction;
    for (let version = event.oldVersion + 1; version <= target; version++) {
      steps[version]?.(db, tx);
    }
  });

  const opened = settle(request).then(
    (db) => {
      clearTimeout(timer);
      if (timedOut) {
        db.close();
        return new Db<StoreSchema>(realmOf(indexedDB, options.IDBKeyRange), db);
      }
      db.addEventListener('versionchange', () => {
        db.close();
        onExternalClose(
          new StoreClosedError(
            `database "${name}" was closed because another tab is upgrading or deleting it; reload to continue`,
          ),
        );
      });
      db.addEventListener('close', () => {
        onExternalClose(new StoreClosedError(`database "${name}" was closed by the browser`));
      });
      return new Db<StoreSchema>(realmOf(indexedDB, options.IDBKeyRange), db);
    },
    (error: unknown) => {
      clearTimeout(timer);
      if (error instanceof Error && error.name === 'VersionError') {
        throw new StoreClosedError(
          `database "${name}" was written by a newer release of this store (this code knows version ${target}); reload the page to get the newer code`,
        );
      }
      throw error;
    },
  );
  return Promise.race([opened, blocked]);
}
