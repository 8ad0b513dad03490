/**
 * A throw-away Postgres cluster from Debian's `postgresql` package: initdb in a
 * temp dir and pg_ctl on a free port, run as user `postgres` when this process
 * is root (Postgres refuses to run as root).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface Postgres {
  url: string;
  /**
   * Stops the server at once (`-m immediate`: every connection dropped, as in a crash) and starts it
   * again on the same data and port; asynchronous, so that clients in this process go on meanwhile.
   */
  restart(): Promise<void>;
  stop(): void;
}

/** The directory of Postgres's server binaries, or `undefined` when the package is not installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  return undefined;
}

export const POSTGRES_MISSING =
  'Postgres is not installed (no /usr/lib/postgresql/*/bin/pg_ctl): the sync server suite did NOT run against Postgres. Install it with `apt-get install -y postgresql` (.ci/run does).';

/** A TCP port free on 127.0.0.1 now (the caller listens on it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startPostgres(bin: string): Promise<Postgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sync-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = join(bin, tool);
    if (asPostgres) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const runAsync = (tool: string, args: string[]) => {
    const command = join(bin, tool);
    return asPostgres
      ? promisify(execFile)('runuser', ['-u', 'postgres', '--', command, ...args])
      : promisify(execFile)(command, args);
  };
  const startArgs = [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-w',
    '-l',
    join(dir, 'log'),
    'start',
  ];
  run('pg_ctl', startArgs);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await runAsync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      await runAsync('pg_ctl', startArgs);
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
