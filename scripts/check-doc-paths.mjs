#!/usr/bin/env node
// Repository paths named in README.md, docs/ and the examples' READMEs must exist: the layout moves
// (as src/ did into core/, database/, sessions/) and a guide that points at a file that is gone
// sends the reader nowhere. A path is a word starting with one of the repository's top-level
// folders; names relative to an example (its own src/) are read from that example's folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { docFiles } from './doc-files.mjs';

const root = new URL('..', import.meta.url).pathname;
const top = ['src', 'test', 'bench', 'scripts', 'demo', 'server', 'worker', 'examples', 'docs', 'api'];
const pathLike = new RegExp(`(?<![\\w./-])(?:${top.join('|')})/[\\w./-]*[\\w/]`, 'g');
// Written out, not files: output a command writes, and the worker's built path inside the package.
const generated = [/^bench\/results\/latest$/, /^docs\/api\//, /^worker\/store\.js$/];

const files = [
  ...docFiles(root).map((f) => relative(root, f)),
  ...readdirSync(join(root, 'examples')).map((name) => join('examples', name, 'README.md')),
].filter((f) => existsSync(join(root, f)));

const missing = [];
for (const file of files) {
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const [name] of line.matchAll(pathLike)) {
        if (generated.some((g) => g.test(name))) continue;
        const here = file.startsWith('examples/') ? [join(root, dirname(file), name)] : [];
        if (![join(root, name), ...here].some(existsSync)) missing.push(`${file}:${i + 1}: ${name}`);
      }
    });
}
if (missing.length > 0) {
  console.error(`Paths named in the docs that do not exist:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
console.log(`docs paths: every repository path named in ${files.length} files exists`);
