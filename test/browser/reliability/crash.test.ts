/**
 * Crash mid-write in a real browser: the store's worker is terminated at a
 * random moment during streams of appends (two sessions at once, in bursts, so
 * group commits span both). After each crash a fresh worker reopens the
 * database: every append that resolved is stored, the stored events of each
 * stream are a prefix of what was issued (none skipped, none twice), state is
 * the fold of the stored deltas, and the store goes on working.
 */
import { describe, expect, it } from 'vitest';
import { within } from '../../reliability/fuzz-run.js';
import { report } from '../../reliability/scale.js';
import { random, runStream, streamEvent, streamProblems } from '../../reliability/stream.js';
import { dedicatedClient, deleteDatabase, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

const APP = 'crash-app';
const USER = 'crash-user';

describe('crash mid-write: worker terminated', () => {
  it(
    `keeps every acknowledged append and never half of one (${scale.crashTrials} trials)`,
    async () => {
      const dbName = uniqueDbName('crash');
      const rng = random(scale.seed);
      const streams: { sid: string; issued: number; acked: number[] }[] = [];
      let crashedMidStream = 0;
      let acked = 0;
      let unacked = 0;
      for (let t = 0; t < scale.crashTrials; t++) {
        const { client, worker } = dedicatedClient(dbName);
        const sids = [`t${t}-a`, `t${t}-b`];
        const sessions = await Promise.all(
          sids.map((sessionId) => client.createSession({ appName: APP, userId: USER, sessionId })),
        );
        // Kill after a random number of acknowledgements, then a random 0-3 ms more.
        const killAfter = Math.floor(rng() * scale.crashAppends * sids.length);
        const delay = Math.floor(rng() * 4);
        let acks = 0;
        const kill = (): void => void setTimeout(() => worker.terminate(), delay);
        if (killAfter === 0) kill();
        const onAck = (): void => {
          if (++acks === killAfter) kill();
        };
        const outcomes = await within(30_000, `trial ${t}: streams settle after the crash`, () =>
          Promise.all(
            sessions.map((s) => runStream(client, s, { count: scale.crashAppends, maxBurst: 8, rng, onAck })),
          ),
        );
        worker.terminate();
        if (outcomes.some((o) => o.error)) crashedMidStream++;
        for (const o of outcomes) {
          // Calls pending when the worker died fail with StoreClosedError, never hang, never anything else.
          if (o.error) expect(o.error, `trial ${t}`).toMatchObject({ code: 'STORE_CLOSED', typed: true });
          streams.push({ sid: o.sid, issued: o.issued, acked: o.acked });
          acked += o.acked.length;
          unacked += o.issued - o.acked.length;
        }
        const { client: reader } = dedicatedClient(dbName);
        for (const o of outcomes) {
          const stored = await reader.getSession({ appName: APP, userId: USER, sessionId: o.sid });
          expect(streamProblems(stored, o.sid, o.issued, o.acked), `trial ${t}, ${o.sid}`).toEqual([]);
        }
        await reader.close();
      }

      // Afterwards, from a fresh worker: every stream of every trial is still intact and takes new appends.
      const { client } = dedicatedClient(dbName);
      let lost = 0;
      for (const s of streams) {
        const session = await client.getSession({ appName: APP, userId: USER, sessionId: s.sid });
        const problems = streamProblems(session, s.sid, s.issued, s.acked);
        lost += problems.filter((p) => p.startsWith('acknowledged')).length;
        expect(problems, s.sid).toEqual([]);
        const next = session?.events.length ?? 0;
        await client.appendEvent({ session: session as NonNullable<typeof session>, event: streamEvent(s.sid, next) });
        const after = await client.getSession({ appName: APP, userId: USER, sessionId: s.sid });
        expect(streamProblems(after, s.sid, next + 1, [...s.acked, next]), s.sid).toEqual([]);
      }
      await client.close();
      await deleteDatabase(dbName);
      expect(crashedMidStream).toBeGreaterThan(0);
      report('crash: worker terminated', {
        seed: scale.seed,
        trials: scale.crashTrials,
        crashesMidStream: crashedMidStream,
        appendsAcknowledged: acked,
        appendsInFlightAtCrash: unacked,
        acknowledgedLost: lost,
      });
    },
    scale.timeoutMs,
  );
});
