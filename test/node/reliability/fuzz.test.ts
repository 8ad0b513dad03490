/**
 * Bad-input fuzzing in Node over fake-indexeddb: thousands of generated
 * malformed requests through the in-thread service and through a client over a
 * MessageChannel, the same straight into the host API and as raw Comlink
 * messages (what a page script could send), plus hostile Comlink envelopes.
 * Every one is rejected with a typed error, nothing hangs or crashes, the
 * store's dump is byte-identical afterwards and no built-in prototype changes.
 */

import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostApi } from '../../../src/host/api.js';
import { createHost, exposeEngine } from '../../../src/host/expose.js';
import { StoreEngine } from '../../../src/host/store-engine.js';
import {
  connectSessionStore,
  IndexedDbSessionService,
  type SessionService,
  type SessionStore,
} from '../../../src/index.js';
import { badCalls, CLIENT_TEMPLATES, HOST_TEMPLATES, type Seed } from '../../reliability/bad-inputs.js';
import { dumpStore } from '../../reliability/dump.js';
import {
  fuzzClient,
  fuzzCrossField,
  newFuzzStats,
  oddButValid,
  prototypeFingerprint,
  seedStore,
  within,
} from '../../reliability/fuzz-run.js';
import {
  applyMessage,
  exchange,
  expectTypedRejection,
  hostileEnvelopes,
  TYPED_CODES,
} from '../../reliability/raw-host.js';
import { nodeEnv, reliabilityScale, report } from '../../reliability/scale.js';

const scale = reliabilityScale(nodeEnv());

describe('bad-input fuzzing (fake-indexeddb)', () => {
  let indexedDB: IDBFactory;
  let engine: StoreEngine;
  let opened: SessionService[];
  beforeEach(() => {
    indexedDB = new IDBFactory();
    engine = new StoreEngine({ indexedDB, dbName: 'fuzz' });
    opened = [];
  });
  afterEach(async () => {
    for (const s of opened) await s.close().catch(() => {});
    await engine.close();
  });

  const stores: [string, () => SessionStore][] = [
    ['the in-thread service', () => new IndexedDbSessionService({ indexedDB, dbName: 'fuzz' })],
    [
      'a client over a MessageChannel',
      () => {
        const { port1, port2 } = new MessageChannel();
        exposeEngine(engine, port1);
        return connectSessionStore(port2, { dbName: 'fuzz' });
      },
    ],
  ];

  for (const [label, open] of stores) {
    it(
      `rejects every malformed request through ${label} with a typed error and changes nothing`,
      async () => {
        const store = open();
        opened.push(store);
        const { seed, universe } = await seedStore(store);
        const stats = newFuzzStats();
        await fuzzCrossField(store, seed, universe, stats);
        await fuzzClient(
          store,
          badCalls(CLIENT_TEMPLATES, seed),
          { seed: scale.seed, numRuns: scale.fuzzInputs, universe, dumpEvery: 1 },
          stats,
        );
        const odd = await oddButValid(store, { seed: scale.seed, numRuns: Math.ceil(scale.fuzzInputs / 20), universe });
        report(`fuzz node, ${label}`, {
          seed: scale.seed,
          malformed: stats.tried,
          oddButValidAccepted: odd,
          dumps: stats.dumps,
          ...prefixed(stats.byCode),
        });
      },
      scale.timeoutMs,
    );
  }

  it(
    'answers every malformed call straight into the host API with a typed error',
    async () => {
      const store = open(engine);
      const { seed, universe } = await seedStore(store);
      const loaded = await engine.getSession({ appName: seed.appName, userId: seed.userId, sessionId: seed.sessionId });
      const hostSeed: Seed = { ...seed, ...(loaded ? { ref: loaded.ref } : {}) };
      const host = createHost(() => engine) as HostApi;
      expect((await host.hello({})).ok).toBe(true);
      const before = await dumpStore(store, universe);
      const fingerprint = prototypeFingerprint();
      const stats = newFuzzStats();
      await fc.assert(
        fc.asyncProperty(badCalls(HOST_TEMPLATES, hostSeed), async (call) => {
          stats.tried++;
          const method = host[call.method] as (arg: unknown) => Promise<unknown>;
          let result: unknown;
          try {
            result = await within(20_000, call.defect, () => method(call.request));
          } catch (error) {
            throw new Error(`${call.defect}: the host threw instead of answering: ${String(error)}`);
          }
          expectTypedRejection(call, result, stats);
        }),
        { seed: scale.seed, numRuns: scale.fuzzInputs },
      );
      expect(await dumpStore(store, universe)).toBe(before);
      expect(prototypeFingerprint()).toBe(fingerprint);
      report('fuzz node, host API called directly', {
        seed: scale.seed,
        malformed: stats.tried,
        ...prefixed(stats.byCode),
      });
    },
    scale.timeoutMs,
  );

  it(
    'answers raw Comlink messages with malformed arguments or hostile envelopes with typed errors, and keeps serving',
    async () => {
      const store = open(engine);
      const { seed, universe } = await seedStore(store);
      const { port1, port2 } = new MessageChannel();
      exposeEngine(engine, port1);
      port2.start();
      const fingerprint = prototypeFingerprint();
      const before = await dumpStore(store, universe);
      const hello = (await exchange(port2, applyMessage('hello', {}), 5_000)) as { value?: { ok?: boolean } };
      expect(hello.value?.ok).toBe(true);
      const stats = newFuzzStats();
      let unsendable = 0;
      await fc.assert(
        fc.asyncProperty(badCalls(HOST_TEMPLATES, seed, { forPostMessage: true }), async (call) => {
          let reply: unknown;
          try {
            reply = await exchange(port2, applyMessage(call.method, call.request), 20_000);
          } catch {
            // The page cannot even send it (a function, a symbol, a proxy): nothing reaches the host.
            unsendable++;
            return;
          }
          stats.tried++;
          expect(reply, `${call.defect}: no answer`).not.toBe('no reply');
          expectTypedRejection(call, (reply as { value?: unknown }).value, stats);
        }),
        { seed: scale.seed, numRuns: scale.fuzzInputs },
      );
      let envelopes = 0;
      for (const [name, message] of hostileEnvelopes()) {
        envelopes++;
        const reply = (await exchange(port2, message, 5_000)) as {
          type?: string;
          value?: { ok?: boolean; error?: { code?: string } };
        };
        expect(reply, `${name}: no answer`).not.toBe('no reply');
        expect(reply.type, `${name}: ${JSON.stringify(reply)}`).toBe('RAW');
        expect(reply.value?.ok, name).toBe(false);
        expect(TYPED_CODES.has(String(reply.value?.error?.code)), name).toBe(true);
      }
      for (const data of [null, 0, 'text', [], { id: 'no-type' }]) {
        envelopes++;
        port2.postMessage(data);
      }
      expect(prototypeFingerprint()).toBe(fingerprint);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // Still serving, and nothing changed.
      const app = (await exchange(port2, applyMessage('getAppState', { appName: seed.appName }), 5_000)) as {
        value?: { ok?: boolean; value?: unknown };
      };
      expect(app.value).toEqual({ ok: true, value: { a: 1 } });
      expect(await dumpStore(store, universe)).toBe(before);
      port2.close();
      report('fuzz node, raw Comlink messages', {
        seed: scale.seed,
        malformed: stats.tried,
        unsendable,
        hostileEnvelopes: envelopes,
        ...prefixed(stats.byCode),
      });
    },
    scale.timeoutMs,
  );

  function open(e: StoreEngine): SessionService {
    const { port1, port2 } = new MessageChannel();
    exposeEngine(e, port1);
    const client = connectSessionStore(port2, { dbName: 'fuzz' });
    opened.push(client);
    return client;
  }
});

function prefixed(codes: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(codes).map(([k, v]) => [`rejected.${k}`, v]));
}
