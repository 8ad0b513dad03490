/** Shared helpers for tests in a real browser. */
import { afterEach } from 'vitest';
import { server } from 'vitest/browser';
import { connectSessionStore, type SessionStoreClient } from '../../src/index.js';

/**
 * What the driver of this run's engine cannot do, for `it.skipIf`. The reliability commands that
 * open more pages (test/browser/reliability/commands.ts) drive them with Playwright; WebKit runs
 * under WebDriver (scripts/engines/webkit.ts), where neither exists.
 */
export const driverLacks = {
  /** Another page of the same browser: a second tab to load from, or to close mid-write. */
  remotePages: server.provider !== 'playwright',
  /**
   * An on-disk profile whose quota a test sets: WebKitGTK under automation keeps all website data
   * in memory (an ephemeral session), with no quota to set from outside.
   */
  onDiskQuota: server.provider !== 'playwright',
};

/** The engine this run drives (`chromium`, `firefox`, `webkit`), for reports' labels. */
export const engineName: string = server.browser;

let counter = 0;
export const uniqueDbName = (prefix: string): string => `${prefix}-${Date.now()}-${counter++}`;

/**
 * Deletes a test's database, for its teardown: settles when deleted, failed or blocked, and after 10 s
 * at the latest (WebKitGTK has left a deletion neither done nor blocked for good, behind a connection
 * of a terminated worker), so a teardown never outlasts its test.
 */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
    setTimeout(resolve, 10_000);
  });
}

/** A client over its own dedicated module worker: what one tab has. */
export function dedicatedClient(
  dbName: string,
  options: { timeoutMs?: number } = {},
): {
  client: SessionStoreClient;
  worker: Worker;
} {
  const worker = new Worker(new URL('../../worker/store.ts', import.meta.url), { type: 'module' });
  return { client: connectSessionStore(worker, { dbName, ownsWorker: true, ...options }), worker };
}

/** A client over the origin's SharedWorker. */
export function sharedClient(dbName: string): SessionStoreClient {
  const worker = new SharedWorker(new URL('../../worker/store.ts', import.meta.url), {
    type: 'module',
    name: 'idb-adk-sessions-test',
  });
  return connectSessionStore(worker, { dbName });
}

/** What a test opened, to be undone after it, last first: registers the `afterEach` that runs it. */
export function cleanupAfterEach(): (() => Promise<void> | void)[] {
  const steps: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  return steps;
}

/** A page (`reader`) and another tab (`writer`) over one fresh database, each with its own worker; both closed and the database deleted by `cleanup`. */
export function twoTabs(
  prefix: string,
  cleanup: (() => Promise<void> | void)[],
): { reader: SessionStoreClient; writer: SessionStoreClient } {
  const dbName = uniqueDbName(prefix);
  const reader = dedicatedClient(dbName).client;
  const writer = dedicatedClient(dbName).client;
  cleanup.push(() => deleteDatabase(dbName));
  cleanup.push(() => writer.close());
  cleanup.push(() => reader.close());
  return { reader, writer };
}
