/**
 * Isolation: whatever the ids contain (prefixes and suffixes of each other,
 * '\u0000', '/', ':', scope prefixes, lone surrogates, RTL marks, emoji,
 * `__proto__`), no call made with one app's or user's ids returns or changes
 * another's data. Each run draws a fresh set of colliding ids and checks every
 * read, and the whole store, against the model, which keys everything by the
 * exact id tuple.
 */

import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { IndexedDbSessionService } from '../../../src/index.js';
import { isolationUniverse } from '../../reliability/arbitraries.js';
import { commandArbitrary, type ModelConfig, newStats, runCommands } from '../../reliability/model-run.js';
import { nodeEnv, reliabilityScale, report } from '../../reliability/scale.js';

const scale = reliabilityScale(nodeEnv());

describe('isolation between apps, users and sessions (fake-indexeddb)', () => {
  it(
    'never lets ids that collide under naive encodings reach each other’s data',
    async () => {
      const stats = newStats();
      let run = 0;
      const scenario = isolationUniverse.chain((universe) => {
        // Leaning on creates and fan-out appends puts sessions of different tenants into one transaction.
        const config: ModelConfig = {
          clients: 2,
          ...universe,
          maxCommands: scale.modelCommands,
          weights: { create: 6, fanout: 8, race: 1, createRace: 1, burst: 1 },
        };
        return fc.tuple(fc.constant(config), commandArbitrary(config));
      });
      await fc.assert(
        fc.asyncProperty(scenario, async ([config, commands]) => {
          const indexedDB = new IDBFactory();
          const dbName = `isolation-${run++}`;
          const clients = [0, 1].map(() => new IndexedDbSessionService({ indexedDB, dbName }));
          try {
            await runCommands(commands, clients, config, stats, Date.now());
          } finally {
            await Promise.all(clients.map((c) => c.close()));
          }
        }),
        { seed: scale.seed, numRuns: scale.isolationRuns },
      );
      report('isolation node', {
        seed: scale.seed,
        runs: run,
        commands: stats.commands,
        appendsStored: stats.appendsStored,
        checks: stats.checks,
      });
    },
    scale.timeoutMs,
  );

  it('keeps two sessions whose ids join to the same string apart inside one group commit', async () => {
    // Two batches handed to the engine in one turn share one transaction, as appends from two
    // tabs of one SharedWorker do under load. ['a\0b', 'c'] and ['a', 'b\0c'] join with '\0' alike.
    const engine = new StoreEngine({ indexedDB: new IDBFactory(), dbName: 'join-collision' });
    const left = await engine.createSession({ appName: 'a\u0000b', userId: 'c', sessionId: 's' });
    const right = await engine.createSession({ appName: 'a', userId: 'b\u0000c', sessionId: 's' });
    const batch = (loaded: typeof left, who: string) => ({
      appName: loaded.session.appName,
      userId: loaded.session.userId,
      sessionId: 's',
      ref: loaded.ref,
      lastUpdateTime: loaded.session.lastUpdateTime,
      events: [{ id: who, timestamp: 1, actions: { stateDelta: { who, 'user:who': who } } }],
    });
    await Promise.all([engine.appendEvents(batch(left, 'left')), engine.appendEvents(batch(right, 'right'))]);
    const [l, r] = await Promise.all([
      engine.getSession({ appName: 'a\u0000b', userId: 'c', sessionId: 's' }),
      engine.getSession({ appName: 'a', userId: 'b\u0000c', sessionId: 's' }),
    ]);
    expect(l?.session.events.map((e) => e.id)).toEqual(['left']);
    expect(r?.session.events.map((e) => e.id)).toEqual(['right']);
    expect(l?.session.state).toEqual({ who: 'left', 'user:who': 'left' });
    expect(r?.session.state).toEqual({ who: 'right', 'user:who': 'right' });
    expect(await engine.getUserState({ appName: 'a', userId: 'b' })).toEqual({});
    await engine.close();
  });
});
