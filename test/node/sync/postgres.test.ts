/**
 * The same sync suites against real Postgres: a throw-away cluster from
 * Debian's `postgresql` package. Without the package this file fails on purpose
 * (.ci/run installs it): a suite that silently did not run would claim too much.
 */
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { POSTGRES_MISSING, type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';
import { type ServerProcess, startServer } from '../../sync/server-process.js';
import { devicesSuite } from '../../sync/suites/devices.js';
import { faultsSuite } from '../../sync/suites/faults.js';
import { modelSuite } from '../../sync/suites/model-based.js';
import { refusalsSuite } from '../../sync/suites/refusals.js';
import { serverApiSuite } from '../../sync/suites/server-api.js';

// Each test talks to a server process over HTTP; on a loaded 2-core machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const bin = postgresBin();

if (!bin) {
  it('has Postgres installed to run the sync suites against', () => {
    throw new Error(POSTGRES_MISSING);
  });
} else {
  let postgres: Postgres;
  let server: ServerProcess;
  beforeAll(async () => {
    postgres = await startPostgres(bin);
    server = await startServer({ DATABASE_URL: postgres.url, SYNC_MAX_BODY_BYTES: '65536' });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    postgres?.stop();
  });

  describe('sync server on Postgres', () => {
    serverApiSuite(() => server);
    devicesSuite(() => server);
    faultsSuite(() => server);
    modelSuite(() => server);
    refusalsSuite(() => server);
  });
}
