/**
 * Model-based random testing in a real browser: three clients, each over its own
 * dedicated worker (three tabs), on one IndexedDB database, checked against the
 * contract model after every step; and the isolation property over colliding
 * ids on real IndexedDB (string keys with lone surrogates, NUL, RTL marks).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { IndexedDbSessionService } from '../../../src/index.js';
import { isolationUniverse } from '../../reliability/arbitraries.js';
import {
  commandArbitrary,
  type ModelConfig,
  newStats,
  runCommands,
  statsFigures,
} from '../../reliability/model-run.js';
import { report } from '../../reliability/scale.js';
import { dedicatedClient, deleteDatabase, engineName, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

describe('model-based random testing', () => {
  it(
    `keeps the contract under random commands from 3 dedicated-worker clients (${scale.browserModelRuns} runs)`,
    async () => {
      const config: ModelConfig = {
        clients: 3,
        apps: ['chat', 'chat:x'],
        users: ['u1', 'u2'],
        sessionIds: ['s1', 's2', 's3'],
        minCommands: Math.ceil(scale.modelCommands / 2),
        maxCommands: scale.modelCommands,
      };
      const stats = newStats();
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(commandArbitrary(config), async (commands) => {
          const dbName = uniqueDbName('model');
          runs++;
          const clients = [0, 1, 2].map(() => dedicatedClient(dbName).client);
          try {
            await runCommands(commands, clients, config, stats, Date.now());
          } finally {
            await Promise.all(clients.map((c) => c.close()));
            await deleteDatabase(dbName);
          }
        }),
        { seed: scale.seed, numRuns: scale.browserModelRuns },
      );
      report(`model-based ${engineName}, dedicated-worker clients`, { seed: scale.seed, runs, ...statsFigures(stats) });
    },
    scale.timeoutMs,
  );

  it(
    'never lets ids that collide under naive encodings reach each other’s data (real IndexedDB keys)',
    async () => {
      const stats = newStats();
      let runs = 0;
      const scenario = isolationUniverse.chain((universe) => {
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
          const dbName = uniqueDbName('isolation');
          runs++;
          const clients = [0, 1].map(() => new IndexedDbSessionService({ dbName }));
          try {
            await runCommands(commands, clients, config, stats, Date.now());
          } finally {
            await Promise.all(clients.map((c) => c.close()));
            await deleteDatabase(dbName);
          }
        }),
        { seed: scale.seed, numRuns: Math.ceil(scale.isolationRuns / 3) },
      );
      report(`isolation ${engineName}`, {
        seed: scale.seed,
        runs,
        commands: stats.commands,
        appendsStored: stats.appendsStored,
        checks: stats.checks,
      });
    },
    scale.timeoutMs,
  );
});
