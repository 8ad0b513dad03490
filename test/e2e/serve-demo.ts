/**
 * Global setup of the e2e project: builds the demo page exactly as it ships
 * (`vite build`) and the AI SDK example (examples/ai-sdk-chat), serves the build with `vite preview` on a free local port,
 * and stops the server afterwards. Tests read the address with `inject('demoUrl')`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = spawnSync(vite, ['build', '--logLevel', 'warn'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}\n${build.stderr}`);
  // The AI SDK example, served beside the demo at ai-sdk-chat/.
  const example = spawnSync(vite, ['build', '--config', 'examples/ai-sdk-chat/vite.config.ts'], { encoding: 'utf8' });
  if (example.status !== 0) throw new Error(`example build failed:\n${example.stdout}\n${example.stderr}`);
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
  project.provide('demoUrl', url);
  return async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  };
}
