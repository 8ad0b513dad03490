/**
 * Upgrades in a real browser, between tabs. A newer release (the shipped schema
 * plus a step, in a test worker) opening the database makes a tab holding the
 * old version close its connection on `versionchange`, and that tab's client
 * says so at once (onClose, then StoreClosedError on every call) instead of
 * failing obscurely later; the upgrade is not held up and loses nothing. A tab
 * that will not close makes the upgrade fail with UpgradeBlockedError after
 * the timeout instead of hanging, and it succeeds once that tab is gone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serviceForTesting } from '../../../src/client/indexeddb-session-service.js';
import { SCHEMA_VERSION } from '../../../src/database/open.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  type SessionService,
  type SessionStoreClient,
  StoreClosedError,
  UpgradeBlockedError,
} from '../../../src/index.js';
import { canonical } from '../../reliability/dump.js';
import { within } from '../../reliability/fuzz-run.js';
import { report } from '../../reliability/scale.js';
import { streamEvent } from '../../reliability/stream.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from '../helpers.js';

const APP = 'upgrade-app';
const USER = 'upgrade-user';
const key = { appName: APP, userId: USER, sessionId: 's' };

/** A client whose worker runs the shipped schema plus `extraVersions` more upgrade steps. */
function newerClient(dbName: string, blockedTimeoutMs: number, extraVersions = 1): SessionStoreClient {
  const worker = new Worker(new URL('./fixtures/versioned-worker.ts', import.meta.url), {
    type: 'module',
    name: JSON.stringify({ dbName, extraVersions, blockedTimeoutMs }),
  });
  return connectSessionStore(worker, { dbName, ownsWorker: true });
}

/** Writes a session with events in every scope; returns what it reads back. */
async function seed(store: SessionService): Promise<string> {
  const session = await store.createSession({ ...key, state: { 'app:a': 1, 'user:u': 2, own: 3 } });
  for (let i = 0; i < 5; i++) await store.appendEvent({ session, event: streamEvent('s', i) });
  return canonical(await store.getSession(key));
}

function openRaw(name: string, version: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const opened: SessionService[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => {});
});

describe('upgrades between tabs', () => {
  it('closes an old tab’s connection on versionchange, tells its client, and migrates with nothing lost', async () => {
    const dbName = uniqueDbName('upgrade');
    const { client: old } = dedicatedClient(dbName);
    opened.push(old);
    const before = await seed(old);
    const closes: StoreClosedError[] = [];
    old.onClose((error) => closes.push(error));

    // A generous timeout: if the old tab did not let go, this would fail with UpgradeBlockedError.
    const newer = newerClient(dbName, 60_000);
    opened.push(newer);
    expect(canonical(await newer.getSession(key))).toBe(before);

    await within(10_000, 'the old client hears about the upgrade', async () => {
      while (closes.length === 0) await new Promise((r) => setTimeout(r, 10));
    });
    expect(closes).toHaveLength(1);
    expect(closes[0]).toBeInstanceOf(StoreClosedError);
    expect(closes[0]?.message).toMatch(/upgrading or deleting/);
    expect(old.closed).toBe(true);
    await expect(within(10_000, 'a call on the old client', () => old.getSession(key))).rejects.toBeInstanceOf(
      StoreClosedError,
    );

    // The new version is in place and keeps working for everyone on it.
    const db = await openRaw(dbName, SCHEMA_VERSION + 1);
    expect([...db.objectStoreNames]).toContain('future-0');
    db.close();
    const reloaded = await newer.getSession(key);
    await newer.appendEvent({ session: reloaded as NonNullable<typeof reloaded>, event: streamEvent('s', 5) });
    expect((await newer.getSession(key))?.events).toHaveLength(6);
    report('upgrade: versionchange', { oldClientClosed: 1, sessionsMigrated: 1, lost: 0 });
    await deleteDatabase(dbName);
  }, 60_000);

  it('closes an old tab’s connection when another tab deletes the database, and tells its client', async () => {
    const dbName = uniqueDbName('upgrade-delete');
    const { client: old } = dedicatedClient(dbName);
    opened.push(old);
    await seed(old);
    const closes: StoreClosedError[] = [];
    old.onClose((error) => closes.push(error));
    const deleted = await within(10_000, 'deleting the database is not blocked', () => deleteRaw(dbName));
    expect(deleted).toBe('deleted');
    await within(10_000, 'the old client hears about the deletion', async () => {
      while (closes.length === 0) await new Promise((r) => setTimeout(r, 10));
    });
    expect(closes[0]).toBeInstanceOf(StoreClosedError);
    await expect(old.listSessions({ appName: APP })).rejects.toBeInstanceOf(StoreClosedError);
  }, 60_000);

  for (const where of ['worker', 'in-thread'] as const) {
    it(`fails a blocked upgrade with UpgradeBlockedError instead of hanging, then succeeds once unblocked (${where})`, async () => {
      const dbName = uniqueDbName(`blocked-${where}`);
      const writer = new IndexedDbSessionService({ dbName });
      const before = await seed(writer);
      await writer.close();
      // A tab that holds the current version open and ignores versionchange.
      const stubborn = await openRaw(dbName, SCHEMA_VERSION);
      stubborn.onversionchange = null;

      const newer: SessionService =
        where === 'worker'
          ? newerClient(dbName, 300)
          : serviceForTesting({
              dbName,
              blockedTimeoutMs: 300,
              upgradesForTesting: [...(await import('../../../src/database/open.js')).shippedUpgrades, () => {}],
            });
      opened.push(newer);
      const error = await within(20_000, 'the blocked upgrade gives up', () =>
        newer.getSession(key).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      expect(error).toBeInstanceOf(UpgradeBlockedError);
      expect((error as UpgradeBlockedError).code).toBe('UPGRADE_BLOCKED');
      expect((error as Error).message).toMatch(/blocked/);

      stubborn.close();
      expect(canonical(await within(20_000, 'the retried upgrade', () => newer.getSession(key)))).toBe(before);
      report(`upgrade: blocked (${where})`, { upgradeBlockedErrors: 1, recoveredAfterUnblock: 1, lost: 0 });
      await newer.close();
      opened.pop();
      await deleteDatabase(dbName);
    }, 60_000);
  }
});

function deleteRaw(name: string): Promise<'deleted' | 'blocked' | 'error'> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve('deleted');
    request.onerror = () => resolve('error');
  });
}
