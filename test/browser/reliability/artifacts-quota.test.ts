/**
 * A full disk during artifact saves, in a real browser with an on-disk profile
 * and a small quota for the origin (see quota.test.ts): the refused save is a
 * typed QuotaExceededError, every acknowledged version is stored whole and nothing of the refused one is, and
 * saves work again once the quota is restored.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { driverLacks } from '../helpers.js';

const QUOTA = 3 * 1024 * 1024;
const key = { appName: 'quota-app', userId: 'quota-user', sessionId: 's', filename: 'big.bin' };

describe('full disk during artifact saves (on-disk profile)', () => {
  for (const kind of ['in-thread', 'dedicated'] as const) {
    it.skipIf(driverLacks.onDiskQuota)(
      `refuses the save that does not fit, keeps every acknowledged version whole, and recovers (${kind})`,
      async () => {
        const id = await commands.remoteOpen('on-disk', { quotaBytes: QUOTA });
        try {
          const dbName = `artifact-quota-${kind}`;
          let h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
          const fill = (sessionId: string) =>
            commands.remoteCall<{
              acknowledged: number;
              error: { code?: string; quota: boolean } | null;
              problems: string[];
            }>(id, 'fillArtifacts', [h, { ...key, sessionId, size: 256 * 1024, max: 100 }]);
          const filled = await fill('s');
          expect(filled.error, 'the disk never filled up').not.toBeNull();
          expect(filled.error).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: true });
          expect(filled.acknowledged).toBeGreaterThan(0);
          expect(filled.problems).toEqual([]);

          // Deleting works on a full disk. Chromium reclaims a deleted Blob's file later, not within the
          // deletion's transaction: a save right after may still be refused, but again whole or not at all.
          await commands.remoteCall(id, 'deleteArtifact', [h, key]);
          const soon = await fill('s2');
          expect(soon.problems).toEqual([]);
          if (soon.error) expect(soon.error).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: true });
          // With the quota restored, saves go through again.
          if (await commands.remoteQuota(id, null)) h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
          const again = await fill('s3');
          expect(again.error).toBeNull();
          expect(again.acknowledged).toBe(100);
          expect(again.problems).toEqual([]);
        } finally {
          await commands.remoteClose(id);
        }
      },
      120_000,
    );
  }
});
