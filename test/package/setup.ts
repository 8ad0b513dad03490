/**
 * Global setup of the `package` project: packs the library exactly as `npm publish`
 * would (from the `dist/` that `npm test` built) and installs the tarball into a
 * fresh app folder outside the repo, so nothing resolves from this repo's own
 * node_modules. Every consumer test (bundlers, Node, tsc) uses that install, and
 * so do the examples: each is copied into the app's `examples/` and what its
 * package.json asks for is installed beside the tarball, at the versions it pins.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The optional peers and a Node IndexedDB are what a user of `/adk`, `/react`, `/ai-sdk` or of Node adds
 * next to us (the fixture app's tests); `@types/react` types its file that uses the React subpaths.
 */
const FIXTURE_DEPENDENCIES: Record<string, string> = {
  '@google/adk': '2.0.0',
  'fake-indexeddb': '6.2.8',
  react: '19.3.1',
  '@types/react': '19.3.0',
  ai: '7.0.173',
  '@ai-sdk/react': '4.0.177',
};

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');
const VERSION = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

/** Every example's dependencies, with the fixture's: one version of each, or the examples disagree. */
function dependencies(): string[] {
  // Each name's version, and who asked for it first.
  const wanted = new Map<string, { version: string; by: string }>(
    Object.entries(FIXTURE_DEPENDENCIES).map(([name, version]) => [name, { version, by: 'the fixture app' }]),
  );
  for (const example of readdirSync(EXAMPLES)) {
    const manifest = JSON.parse(readFileSync(path.join(EXAMPLES, example, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (name === 'idb-adk-sessions') {
        // The tarball is installed in its place; what the example asks for is the release it is.
        if (version !== VERSION)
          throw new Error(`examples/${example} wants idb-adk-sessions@${version}, not ${VERSION}`);
        continue;
      }
      if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`examples/${example}: ${name}@${version} is not pinned`);
      const first = wanted.get(name) ?? { version, by: `examples/${example}` };
      if (first.version !== version)
        throw new Error(`examples/${example} pins ${name}@${version}, ${first.by} ${first.version}`);
      wanted.set(name, first);
    }
  }
  return [...wanted].map(([name, { version }]) => `${name}@${version}`);
}

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'idb-adk-consumer-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', root], process.cwd())) as {
    filename: string;
  }[];
  const tarball = path.join(root, packed[0]?.filename ?? '');
  const app = path.join(root, 'app');
  cpSync(path.join(import.meta.dirname, 'app'), app, { recursive: true });
  // What a user copies: the example's own files, not what a run in this repo left in it.
  cpSync(EXAMPLES, path.join(app, 'examples'), {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist)$/.test(source),
  });
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'consumer-app', private: true, type: 'module' }, null, 2),
  );
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...dependencies()], app);
  project.provide('consumerDir', app);
  project.provide('tarball', tarball);
  return () => rmSync(root, { recursive: true, force: true });
}
