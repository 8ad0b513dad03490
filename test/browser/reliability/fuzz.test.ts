/**
 * Bad-input fuzzing in a real browser: thousands of generated malformed
 * requests through the client of a dedicated worker (most are refused on the
 * page, before postMessage), then the same as raw Comlink messages posted
 * straight to a worker (what any page script could do), and hostile Comlink
 * envelopes; and each method the worker serves sent what is no request at all. Every one is rejected with a typed error, nothing hangs or
 * crashes, the store's dump is byte-identical afterwards, and neither the page
 * nor the worker realm has a polluted prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badCalls, CLIENT_TEMPLATES, HOST_TEMPLATES } from '../../reliability/bad-inputs.js';
import { dumpStore } from '../../reliability/dump.js';
import { prototypeFingerprint } from '../../reliability/fingerprint.js';
import {
  fuzzClient,
  fuzzCrossField,
  newFuzzStats,
  oddButValid,
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
import { report } from '../../reliability/scale.js';
import { dedicatedClient, deleteDatabase, engineName, uniqueDbName } from '../helpers.js';
import { scale } from './scale.js';

function prefixed(codes: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(codes).map(([k, v]) => [`rejected.${k}`, v]));
}

/** The probe worker's prototype fingerprint; a worker that does not answer in 10 s fails the test with `when`. */
function workerFingerprint(worker: Worker, when: string): Promise<string> {
  return within(
    10_000,
    `the probe worker's fingerprint ${when}`,
    () =>
      new Promise((resolve) => {
        const onMessage = (event: MessageEvent): void => {
          const fingerprint = (event.data as { fingerprint?: string })?.fingerprint;
          if (fingerprint === undefined) return;
          worker.removeEventListener('message', onMessage);
          resolve(fingerprint);
        };
        worker.addEventListener('message', onMessage);
        worker.postMessage({ probe: 'fingerprint' });
      }),
  );
}

/**
 * Closes the probe worker's database, then ends the worker. Terminated with the database open, the
 * worker leaves WebKitGTK a connection that never answers the versionchange a deletion sends, and the
 * deletion then neither succeeds nor reports itself blocked: the teardown waited out the test's
 * 10-minute timeout that way after every assertion had passed.
 */
async function endProbe(worker: Worker): Promise<void> {
  await exchange(worker, applyMessage('goodbye', true), 10_000).catch(() => {});
  worker.terminate();
}

/**
 * The methods a worker serves that take no request: nothing to validate (`listApps`, `stopSync`), a
 * call that needs a started sync (`syncNow`), or the connection's own lifecycle (`goodbye` ends it,
 * `whenClosed` answers only when the store closes).
 */
const NO_REQUEST = new Set(['listApps', 'stopSync', 'syncNow', 'goodbye', 'whenClosed']);

describe('bad-input fuzzing', () => {
  it('refuses a request that is no object, sent raw to each method the worker serves, as invalid input', async () => {
    const dbName = uniqueDbName('fuzz-every-method');
    const worker = new Worker(new URL('./fixtures/probe-worker.ts', import.meta.url), { type: 'module' });
    try {
      const hello = (await exchange(worker, applyMessage('hello', { dbName }), 10_000)) as {
        value?: { ok?: boolean; value?: { methods?: string[] } };
      };
      expect(hello.value?.ok).toBe(true);
      // The host's own list: a method added to any capability is checked here with no change to this test.
      const methods = (hello.value?.value?.methods ?? []).filter((m) => !NO_REQUEST.has(m));
      expect(methods).toEqual(expect.arrayContaining(['createSession', 'saveArtifact', 'searchEvents', 'startSync']));
      const answers: Record<string, string> = {};
      for (const method of methods) {
        for (const request of [null, 42, 'text', true]) {
          const reply = (await exchange(worker, applyMessage(method, request), 10_000)) as {
            value?: { ok?: boolean; error?: { code?: string; message?: string } };
          };
          const error = reply.value?.error;
          // Refused by the boundary check before any engine sees it: an engine given `null` would fail otherwise.
          answers[`${method}(${JSON.stringify(request)})`] =
            reply.value?.ok === false ? `${error?.code} ${/^\w[\w ]*: request: /.test(String(error?.message))}` : 'ok';
        }
      }
      expect(Object.entries(answers).filter(([, answer]) => answer !== 'INVALID_INPUT true')).toEqual([]);
    } finally {
      await endProbe(worker);
      await deleteDatabase(dbName);
    }
  });

  it(
    'rejects every malformed request through a worker client with a typed error and changes nothing',
    async () => {
      const dbName = uniqueDbName('fuzz');
      const { client } = dedicatedClient(dbName);
      try {
        const { seed, universe } = await seedStore(client);
        const stats = newFuzzStats();
        await fuzzCrossField(client, seed, universe, stats);
        await fuzzClient(
          client,
          badCalls(CLIENT_TEMPLATES, seed),
          { seed: scale.seed, numRuns: scale.fuzzInputs, universe, dumpEvery: 50 },
          stats,
        );
        const odd = await oddButValid(client, {
          seed: scale.seed,
          numRuns: Math.ceil(scale.fuzzInputs / 20),
          universe,
        });
        expect(client.closed).toBe(false);
        report(`fuzz ${engineName}, worker client`, {
          seed: scale.seed,
          malformed: stats.tried,
          oddButValidAccepted: odd,
          dumps: stats.dumps,
          ...prefixed(stats.byCode),
        });
      } finally {
        await client.close();
        await deleteDatabase(dbName);
      }
    },
    scale.timeoutMs,
  );

  it(
    'answers raw Comlink messages posted to a worker with typed errors, and is neither crashed nor polluted',
    { timeout: scale.timeoutMs },
    async () => {
      const dbName = uniqueDbName('fuzz-raw');
      const { client } = dedicatedClient(dbName);
      const worker = new Worker(new URL('./fixtures/probe-worker.ts', import.meta.url), { type: 'module' });
      try {
        // Every wait here is bounded and named: an engine that loses one message fails in seconds
        // with the step it lost, not at the 10-minute test timeout with none.
        const { seed, universe } = await within(30_000, 'seeding the store', () => seedStore(client));
        const before = await within(30_000, 'the dump before', () => dumpStore(client, universe));
        const clean = await workerFingerprint(worker, 'before the fuzz');
        expect(clean).toBe(prototypeFingerprint());
        const hello = (await exchange(worker, applyMessage('hello', { dbName }), 10_000)) as {
          value?: { ok?: boolean };
        };
        expect(hello.value?.ok).toBe(true);

        const stats = newFuzzStats();
        let unsendable = 0;
        await fc.assert(
          fc.asyncProperty(badCalls(HOST_TEMPLATES, seed, { forPostMessage: true }), async (call) => {
            let reply: unknown;
            try {
              reply = await exchange(worker, applyMessage(call.method, call.request), 20_000);
            } catch {
              // postMessage itself refused it (a function, a symbol, a proxy): it never reaches the worker.
              unsendable++;
              return;
            }
            stats.tried++;
            expect(reply, `${call.defect}: no answer`).not.toBe('no reply');
            expectTypedRejection(call, (reply as { value?: unknown }).value, stats);
          }),
          // No shrinking: a call the worker never answers costs its 20 s wait again at every shrink
          // step, turning one lost reply into the test's 10-minute timeout instead of its message.
          { seed: scale.seed, numRuns: scale.fuzzInputs, endOnFailure: true },
        );
        let envelopes = 0;
        for (const [name, message] of hostileEnvelopes()) {
          envelopes++;
          const reply = (await exchange(worker, message, 10_000)) as {
            type?: string;
            value?: { ok?: boolean; error?: { code?: string } };
          };
          expect(reply, `${name}: no answer`).not.toBe('no reply');
          expect(reply.value?.ok, name).toBe(false);
          expect(TYPED_CODES.has(String(reply.value?.error?.code)), name).toBe(true);
        }
        for (const data of [null, 0, 'text', [], { id: 'no-type' }]) {
          envelopes++;
          worker.postMessage(data);
        }
        expect(await workerFingerprint(worker, 'after the fuzz'), 'the worker realm was polluted').toBe(clean);
        const app = (await exchange(worker, applyMessage('getAppState', { appName: seed.appName }), 10_000)) as {
          value?: unknown;
        };
        expect(app.value).toEqual({ ok: true, value: { a: 1 } });
        expect(await within(30_000, 'the dump after', () => dumpStore(client, universe))).toBe(before);
        report(`fuzz ${engineName}, raw messages to a worker`, {
          seed: scale.seed,
          malformed: stats.tried,
          unsendable,
          hostileEnvelopes: envelopes,
          ...prefixed(stats.byCode),
        });
      } finally {
        await endProbe(worker);
        await client.close();
        await deleteDatabase(dbName);
      }
    },
  );
});
