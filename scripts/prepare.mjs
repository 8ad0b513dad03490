#!/usr/bin/env node
// npm's `prepare`: builds dist/ so that `npm install <git url>` (npm runs `prepare` in its clone,
// with devDependencies installed, then packs `files`) gives a working package, and `npm pack` /
// `npm publish` never ship a stale dist/. It builds only when dist/ is missing or older than the
// sources: a second `npm ci` or `npm install` in a clone costs nothing, and the first one about 10 s
// on a 2-core machine (the same as `npm run build:lib`). Everything it prints goes to stderr, so
// `npm pack --json`'s output stays JSON.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outputs = ['dist/index.js', 'dist/worker/store.js', 'dist/types/src/index.d.ts'].map((p) => join(root, p));
const inputs = ['src', 'worker', 'package.json', 'vite.config.ts', 'tsconfig.json', 'tsconfig.build.json'];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (!existsSync(join(root, 'node_modules/.bin/vite'))) {
  console.error('prepare: no devDependencies installed, dist/ not built (run npm install, then npm run build:lib)');
} else if (outputs.every(existsSync)) {
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const changed = Math.max(
    ...inputs
      .map((p) => join(root, p))
      .filter(existsSync)
      .map(newest),
  );
  if (built >= changed) {
    console.error('prepare: dist/ is up to date');
    process.exit(0);
  }
}
if (existsSync(join(root, 'node_modules/.bin/vite'))) {
  // `npm run build:lib`, quieter: what npm pack prints stays readable.
  console.error('prepare: building dist/');
  for (const [bin, ...args] of [
    ['vite', 'build', '--mode', 'lib', '--logLevel', 'warn'],
    ['tsc', '-p', 'tsconfig.build.json'],
  ]) {
    const { status } = spawnSync(join(root, 'node_modules/.bin', bin), args, { cwd: root, stdio: ['ignore', 2, 2] });
    if (status !== 0) process.exit(status ?? 1);
  }
}
