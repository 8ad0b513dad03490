/**
 * Full disk, in a real browser with an on-disk profile (Chromium's test context
 * keeps IndexedDB in memory and enforces no quota): the origin gets a small
 * quota (Chromium: through the DevTools protocol; Firefox: its storage limit
 * pref, see remoteQuota in commands.ts) and appends fill it until they
 * fail. The failure is a typed QuotaExceededError, the failed append left no
 * trace, everything stored before is intact, an erase on the full disk is all or
 * nothing, and writes work again once space is freed or the quota restored.
 */
import { describe, expect, it } from 'vitest';
import { commands, server } from 'vitest/browser';
import { report } from '../../reliability/scale.js';
import { streamEventId } from '../../reliability/stream.js';
import { driverLacks } from '../helpers.js';

const APP = 'quota-app';
/** Small enough to fill in a few seconds with 64 KB events, big enough for the seeded data. */
const QUOTA = 3 * 1024 * 1024;
const USER = 'quota-user';
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

interface Described {
  name: string;
  code?: string;
  message: string;
  typed: boolean;
  quota: boolean;
}

describe('full disk: quota exhausted (on-disk profile)', () => {
  for (const kind of ['in-thread', 'dedicated'] as const) {
    it.skipIf(driverLacks.onDiskQuota)(
      `rejects writes with QuotaExceededError, keeps everything, and recovers (${kind})`,
      async () => {
        const id = await commands.remoteOpen('on-disk', { quotaBytes: QUOTA });
        try {
          const dbName = `quota-${kind}`;
          let h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
          const call = <T>(name: string, ...args: unknown[]) => commands.remoteCall<T>(id, name, [h, ...args]);
          const problems = (sid: string, issued: number, acked: number[]) =>
            call<{ stored: number; problems: string[] }>('streamProblems', {
              appName: APP,
              userId: USER,
              sid,
              issued,
              acked,
            });

          await call('seed', { appName: APP, userId: USER, sessionId: 'keep', count: 20, payloadBytes: 1000 });
          await call('seed', { appName: APP, userId: USER, sessionId: 'fill', count: 1, payloadBytes: 100 });
          // Fill: 64 KB events until the store refuses one.
          const filled = await call<{ next: number; error: Described | null }>('fillUntilRejected', {
            sessionId: 'fill',
            from: 1,
            max: 2000,
            payloadBytes: 64 * 1024,
          });
          expect(filled.error, 'the disk never filled up').not.toBeNull();
          expect(filled.error).toMatchObject({
            code: 'QUOTA_EXCEEDED',
            name: 'QuotaExceededError',
            typed: true,
            quota: true,
          });
          // Every acknowledged append is there, the refused one is not, and nothing else moved.
          expect(await problems('fill', filled.next, range(filled.next))).toEqual({
            stored: filled.next,
            problems: [],
          });
          expect(await problems('keep', 20, range(20))).toEqual({ stored: 20, problems: [] });
          // The same append again. Chromium: still full, so refused the same way, again leaving no trace.
          // Firefox reclaims space after a refused write (the connection's next read-write transaction
          // is a "cleanup" one, compacted afterwards; see Db.transaction), so there it may be stored:
          // whole, in its place.
          const again = await call<Described | null>('appendNext', {
            appName: APP,
            userId: USER,
            sessionId: 'fill',
            index: filled.next,
            payloadBytes: 64 * 1024,
            reload: false,
          });
          if (server.browser !== 'firefox' || again !== null) {
            expect(again).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: true });
          }
          const stored = again === null ? filled.next + 1 : filled.next;
          expect(await problems('fill', stored, range(stored))).toEqual({ stored, problems: [] });

          // Erasing on a full disk (what a user out of space reaches for first): all or nothing.
          // Either the named events are erased, or the erase is refused as a full disk and every one
          // of them is still whole.
          const eraseIds = [1, 2, 3].map((i) => streamEventId('fill', i));
          const erased = await call<Described | null>('erase', {
            appName: APP,
            userId: USER,
            sessionId: 'fill',
            eventIds: eraseIds,
          });
          const nowErased = await call<string[]>('erasedIds', APP, USER, 'fill');
          if (erased === null) expect(nowErased).toEqual(eraseIds);
          else {
            expect(erased).toMatchObject({ code: 'QUOTA_EXCEEDED', typed: true, quota: true });
            expect(nowErased).toEqual([]);
            expect(await problems('fill', stored, range(stored))).toEqual({ stored, problems: [] });
          }

          // Free space: deleting the big session works on a full disk, and then writes go through again.
          expect(await call('deleteSession', APP, USER, 'fill')).toBeNull();
          expect(await call('list', APP)).toEqual({ totalItems: 1, ids: ['keep'] });
          const small = { appName: APP, userId: USER, sessionId: 'keep', index: 20, payloadBytes: 1000, reload: false };
          expect(await call('appendNext', small)).toBeNull();
          expect(await problems('keep', 21, range(21))).toEqual({ stored: 21, problems: [] });

          // Full again, then the quota restored: writes of every kind work again.
          expect(await call('tryCreate', APP, USER, 'fill-2')).toBeNull();
          const refilled = await call<{ next: number; error: Described | null }>('fillUntilRejected', {
            sessionId: 'fill-2',
            from: 0,
            max: 2000,
            payloadBytes: 64 * 1024,
          });
          expect(refilled.error).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: true });
          if (await commands.remoteQuota(id, null)) h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
          const next = { ...small, sessionId: 'fill-2', index: refilled.next, payloadBytes: 64 * 1024 };
          expect(await call('appendNext', next)).toBeNull();
          expect(await call('tryCreate', APP, USER, 'after')).toBeNull();
          expect(await problems('fill-2', refilled.next + 1, range(refilled.next + 1))).toEqual({
            stored: refilled.next + 1,
            problems: [],
          });
          expect(await problems('keep', 21, range(21))).toEqual({ stored: 21, problems: [] });
          expect(await call('list', APP)).toMatchObject({ totalItems: 3 });
          report(`full disk (${kind})`, {
            appendsBeforeFull: filled.next,
            appendsBeforeFullAgain: refilled.next,
            refusedWithQuotaExceeded: erased === null ? 3 : 4,
            eraseOnFullDisk: erased === null ? 'done' : 'refused, nothing erased',
            lost: 0,
          });
        } finally {
          await commands.remoteClose(id);
        }
      },
      120_000,
    );
  }
});
