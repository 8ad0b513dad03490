/** The sync suites against a real server process on its embedded default storage (libsql). */
import { afterAll, beforeAll, describe, vi } from 'vitest';
import { type ServerProcess, startServer } from '../../sync/server-process.js';
import { devicesSuite } from '../../sync/suites/devices.js';
import { faultsSuite } from '../../sync/suites/faults.js';
import { modelSuite } from '../../sync/suites/model-based.js';
import { refusalsSuite } from '../../sync/suites/refusals.js';
import { serverApiSuite } from '../../sync/suites/server-api.js';

// Each test talks to a server process over HTTP; on a loaded 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ SYNC_MAX_BODY_BYTES: '65536' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('sync server on libsql', () => {
  serverApiSuite(() => server);
  devicesSuite(() => server);
  faultsSuite(() => server);
  modelSuite(() => server);
  refusalsSuite(() => server);
});
