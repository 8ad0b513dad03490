/**
 * Global setup of the `package` project: packs the library exactly as `npm publish`
 * would (from the `dist/` that `npm test` built) and installs the tarball into a
 * fresh app folder outside the repo, so nothing resolves from this repo's own
 * node_modules. Every consumer test (bundlers, Node, tsc) uses that install.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    consumerDir: string;
    tarball: string;
  }
}

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'idb-adk-consumer-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', root], process.cwd())) as {
    filename: string;
  }[];
  const tarball = path.join(root, packed[0]?.filename ?? '');
  const app = path.join(root, 'app');
  cpSync(path.join(import.meta.dirname, 'app'), app, { recursive: true });
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'consumer-app', private: true, type: 'module' }, null, 2),
  );
  // The optional peers and a Node IndexedDB are what a user of `/adk`, `/react`, `/ai-sdk` or of Node adds next to
  // us; react-dom and @ai-sdk/react are what the chat app (app/chat-main.js) is built with.
  npm(
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      tarball,
      '@google/adk@2.0.0',
      'fake-indexeddb@6.2.8',
      'react@19.3.1',
      'react-dom@19.3.1',
      '@types/react@19.3.0',
      'ai@7.0.173',
      '@ai-sdk/react@4.0.177',
    ],
    app,
  );
  project.provide('consumerDir', app);
  project.provide('tarball', tarball);
  return () => rmSync(root, { recursive: true, force: true });
}
