/**
 * Model-based random testing in Node over fake-indexeddb: three services over
 * one database — in this thread, as clients over MessageChannels each with its
 * own engine (separate tabs), and as clients sharing one engine (tabs of one
 * SharedWorker) — checked against the contract model after every step.
 */

import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import { connectSessionStore, IndexedDbSessionService, type SessionService } from '../../../src/index.js';
import {
  commandArbitrary,
  type ModelConfig,
  newStats,
  runCommands,
  statsFigures,
} from '../../reliability/model-run.js';
import { nodeEnv, reliabilityScale, report } from '../../reliability/scale.js';

const scale = reliabilityScale(nodeEnv());

const config: ModelConfig = {
  clients: 3,
  apps: ['chat', 'chat:x'],
  users: ['u1', 'u2'],
  sessionIds: ['s1', 's2', 's3'],
  minCommands: Math.ceil(scale.modelCommands / 4),
  maxCommands: scale.modelCommands,
};

interface Opened {
  clients: SessionService[];
  dispose(): Promise<void>;
}

function overPort(engine: StoreEngine, dbName: string, ownsEngine: boolean): SessionService {
  const { port1, port2 } = new MessageChannel();
  exposeEngine(engine, port1);
  return connectSessionStore(port2, { dbName, ownsWorker: ownsEngine });
}

const backends: [string, (indexedDB: IDBFactory, dbName: string, n: number) => Opened][] = [
  [
    'in-thread services',
    (indexedDB, dbName, n) => {
      const clients = Array.from({ length: n }, () => new IndexedDbSessionService({ indexedDB, dbName }));
      return { clients, dispose: async () => void (await Promise.all(clients.map((c) => c.close()))) };
    },
  ],
  [
    'clients over MessageChannels, one engine each',
    (indexedDB, dbName, n) => {
      const clients = Array.from({ length: n }, () => overPort(new StoreEngine({ indexedDB, dbName }), dbName, true));
      return { clients, dispose: async () => void (await Promise.all(clients.map((c) => c.close()))) };
    },
  ],
  [
    'clients over MessageChannels sharing one engine',
    (indexedDB, dbName, n) => {
      const engine = new StoreEngine({ indexedDB, dbName });
      const clients = Array.from({ length: n }, () => overPort(engine, dbName, false));
      return {
        clients,
        dispose: async () => {
          await Promise.all(clients.map((c) => c.close()));
          await engine.close();
        },
      };
    },
  ],
];

describe('model-based random testing (fake-indexeddb)', () => {
  for (const [label, open] of backends) {
    it(
      `keeps the contract under random commands from ${config.clients} ${label}`,
      async () => {
        const stats = newStats();
        let run = 0;
        await fc.assert(
          fc.asyncProperty(commandArbitrary(config), async (commands) => {
            const opened = open(new IDBFactory(), `model-${run++}`, config.clients);
            try {
              await runCommands(commands, opened.clients, config, stats, Date.now());
            } finally {
              await opened.dispose();
            }
          }),
          { seed: scale.seed, numRuns: scale.modelRuns },
        );
        report(`model-based node, ${label}`, { seed: scale.seed, runs: run, ...statsFigures(stats) });
      },
      scale.timeoutMs,
    );
  }
});
