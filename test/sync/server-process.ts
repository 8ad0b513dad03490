/** The sync server as a real process (npm run server's entry), on a free port, over a throw-away database. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerProcess {
  url: string;
  /** The process's CPU time so far (user + system), in ms; Linux only. */
  cpuMs(): number;
  /** Stops the process (SIGTERM, or SIGKILL with `crash`) and starts it again on the same database and port. */
  restart(crash?: boolean): Promise<void>;
  /** SIGKILLs the process and leaves it down (`restart` brings it back). */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** The process's output so far, for failure messages. */
  output(): string;
}

export const TOKENS = {
  alice: 'alice-token',
  bob: 'bob-token',
  aliceOtherApp: 'alice-other-app-token',
  /** User `model` of any app: random tests take a fresh app per run. */
  model: 'model-token',
  /** carol of app `chat`, who may write `app:` state. */
  carol: 'carol-token',
} as const;
/** alice and bob of app `chat`; a token for alice of app `notes` only; carol may write app state. */
const SYNC_TOKENS = `${TOKENS.alice}=alice@chat,${TOKENS.bob}=bob@chat,${TOKENS.aliceOtherApp}=alice@notes,${TOKENS.model}=model,${TOKENS.carol}=carol@chat+app-state`;

export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sync-server-'));
  // An empty value leaves the variable unset (SYNC_TOKENS: '' runs the server in development mode).
  const base: Record<string, string> = { SYNC_DB_FILE: join(dir, 'sync.db'), SYNC_TOKENS, ...env };
  for (const [name, value] of Object.entries(base)) if (value === '') delete base[name];
  let log = '';
  let child: ChildProcess;
  let url = '';
  const launch = (port: number) =>
    new Promise<string>((resolve, reject) => {
      // node itself, not the tsx wrapper: a killed wrapper would leave its child holding the port.
      // SYNC_SERVER_CPU_PROF=<dir>: each server process writes a V8 CPU profile there when it stops.
      const profile = process.env.SYNC_SERVER_CPU_PROF;
      const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
      child = spawn(process.execPath, [...flags, '--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, ...base, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(log.slice(log.lastIndexOf('sync server')));
        if (found?.[1]) resolve(found[1]);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      child.once('exit', (code) => reject(new Error(`sync server exited (${code}) before listening:\n${log}`)));
    });
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  url = await launch(0);
  const port = Number(new URL(url).port);
  return {
    get url() {
      return url;
    },
    async restart(crash = false) {
      await stop(crash ? 'SIGKILL' : 'SIGTERM');
      url = await launch(port);
    },
    kill: () => stop('SIGKILL'),
    async stop() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => log,
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // utime and stime, in clock ticks (100 per second on Linux).
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
  };
}
