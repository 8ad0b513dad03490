/**
 * The open behind the page's first reads (sessions/first-read.ts), started by
 * `openSessionStore` before anything else: the reads' code is a chunk fetched
 * while it runs. It never creates or upgrades a database (the upgrade an absent
 * database asks for is aborted, which leaves none behind, or in WebKit an empty
 * version-0 entry that the worker's open upgrades as a new database; one of
 * another version is closed), never blocks another tab's upgrade or deletion (it closes on
 * `versionchange`), and gives up after `GIVE_UP_MS` (an open queued behind a
 * deletion that another tab holds up): the worker then reads, and says so in
 * words after its own timeout.
 */
import { SCHEMA_VERSION } from '../database/version.js';

const GIVE_UP_MS = 1000;

/** `dbName` at this code's schema version, opened as it is; `undefined` when absent, of another version, refused or slow. */
export function openAsItIs(dbName: string): Promise<IDBDatabase | undefined> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(dbName);
    } catch {
      resolve(undefined);
      return;
    }
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      resolve(undefined);
    }, GIVE_UP_MS);
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    request.onsuccess = () => {
      clearTimeout(timer);
      const db = request.result;
      db.onversionchange = () => db.close();
      if (db.version === SCHEMA_VERSION && !late) return resolve(db);
      db.close();
      resolve(undefined);
    };
  });
}
