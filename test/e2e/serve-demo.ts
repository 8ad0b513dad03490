/**
 * Global setup of the e2e projects: builds the demo page exactly as it ships
 * (`vite build`) and the AI SDK example (examples/ai-sdk-chat), serves the build with `vite preview` on a free local port,
 * and stops the server afterwards. Tests read the address with `inject('demoUrl')`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    demoUrl: string;
  }
}

const vite = 'node_modules/.bin/vite';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForServer(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with code ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs} ms`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (exit ${code}):\n${output}`)),
    );
  });
}

interface Served {
  url: string;
  stop(): Promise<void>;
}

async function buildAndServe(): Promise<Served> {
  await run(vite, ['build', '--logLevel', 'warn']);
  // The AI SDK example, served beside the demo at ai-sdk-chat/.
  await run(vite, ['build', '--config', 'test/e2e/ai-sdk-chat.vite.config.ts', '--logLevel', 'warn']);
  const port = await freePort();
  const server = spawn(vite, ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForServer(url, server, 30_000);
  } catch (error) {
    server.kill();
    throw error;
  }
  return {
    url,
    async stop() {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    },
  };
}

/*
 * One build and one server for every e2e project (one per engine): each project runs this setup,
 * in the same process but each with its own copy of this module, and two builds into dist/demo at
 * once would race. The first caller builds; the last to finish stops the server.
 */
const SHARED = Symbol.for('idb-adk-sessions/e2e-demo');
type Shared = { served: Promise<Served>; users: number };
const registry = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  registry[SHARED] ??= { served: buildAndServe(), users: 0 };
  const shared = registry[SHARED];
  shared.users += 1;
  let served: Served;
  try {
    served = await shared.served;
  } catch (error) {
    shared.users -= 1;
    if (shared.users === 0) delete registry[SHARED];
    throw error;
  }
  project.provide('demoUrl', served.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry[SHARED];
    await served.stop();
  };
}
