/**
 * Crash mid-write, "the user closes the tab": a second page of the same
 * browser context (opened through Playwright) streams appends, in this page's
 * thread or through its own dedicated worker, and is closed at a random
 * moment. Reading the database afterwards from this page: every append the
 * closed page saw resolve is stored, each stream is a prefix of what was
 * issued, state is the fold of the stored deltas, and the store works on.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { IndexedDbSessionService } from '../../../src/index.js';
import { report } from '../../reliability/scale.js';
import { random, streamEvent, streamProblems } from '../../reliability/stream.js';
import { deleteDatabase, driverLacks, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

const APP = 'close-app';
const USER = 'close-user';

describe('crash mid-write: page closed (Playwright)', () => {
  it.skipIf(driverLacks.remotePages)(
    `keeps every acknowledged append of a tab closed mid-stream (${scale.pageCloseTrials} trials)`,
    async () => {
      const dbName = uniqueDbName('page-close');
      const rng = random(scale.seed + 1);
      const count = scale.pageCloseAppends;
      const reader = new IndexedDbSessionService({ dbName });
      let acked = 0;
      let closedMidStream = 0;
      const kinds = { 'in-thread': 0, dedicated: 0 };
      for (let t = 0; t < scale.pageCloseTrials; t++) {
        const kind = t % 2 === 0 ? 'in-thread' : 'dedicated';
        kinds[kind]++;
        const id = await commands.remoteOpen('test-context');
        const h = await commands.remoteCall<number>(id, 'open', [kind, dbName]);
        const sids = [`p${t}-a`, `p${t}-b`];
        await commands.remoteCall(id, 'startStreams', [
          h,
          { appName: APP, userId: USER, sids, count, maxBurst: 8, pauseMs: 20, seed: scale.seed + t },
        ]);
        // The streams take about a second (bursts every 0-20 ms); close at a random moment within it.
        // (Acknowledgements reach Node too late to aim by count.)
        const afterMs = Math.floor(rng() * 800);
        const closed = await commands.remoteCloseAfter(id, { afterAcks: 0, extraMs: afterMs, timeoutMs: 0 });
        const bySid = new Map<string, number[]>(sids.map((s) => [s, []]));
        for (const ack of closed.acks) {
          const [sid, n] = ack.split(':') as [string, string];
          if (sid !== 'created') bySid.get(sid)?.push(Number(n));
        }
        let complete = 0;
        for (const sid of sids) {
          const stored = await reader.getSession({ appName: APP, userId: USER, sessionId: sid });
          const mine = bySid.get(sid) ?? [];
          acked += mine.length;
          expect(streamProblems(stored, sid, count, mine), `trial ${t} (${kind}), ${sid}`).toEqual([]);
          if (stored?.events.length === count) complete++;
          // Still usable: the next append goes through.
          const next = stored?.events.length ?? 0;
          await reader.appendEvent({ session: stored as NonNullable<typeof stored>, event: streamEvent(sid, next) });
        }
        if (complete < sids.length) closedMidStream++;
        expect(closed.errors, `page errors in trial ${t}`).toEqual([]);
      }
      await reader.close();
      await deleteDatabase(dbName);
      expect(closedMidStream).toBeGreaterThan(0);
      report('crash: page closed', {
        seed: scale.seed,
        trials: scale.pageCloseTrials,
        inThread: kinds['in-thread'],
        dedicatedWorker: kinds.dedicated,
        closedMidStream,
        appendsAcknowledged: acked,
        acknowledgedLost: 0,
      });
    },
    scale.timeoutMs,
  );
});
