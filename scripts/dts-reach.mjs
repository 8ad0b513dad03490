#!/usr/bin/env node
// How big an entry point's public surface is, measured on the built declarations (run
// `npx tsc -p tsconfig.build.json` first): the names it exports, how many of them are values, and
// how many `.d.ts` files its declarations reach through relative imports (`from '…'`,
// `import('…')`), out of all those the build wrote. A file reached is a file whose types a user
// can end up holding, so the fewer the better.
//
//   node scripts/dts-reach.mjs [entry.d.ts] [--list]   (default entry: dist/types/src/index.d.ts; --list names the files)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = 'dist/types';
const entry = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? join(root, 'src/index.d.ts'));
if (!existsSync(entry)) {
  console.error(`${relative('.', entry)} not found: run "npx tsc -p tsconfig.build.json" first.`);
  process.exit(1);
}

/** The `.d.ts` file a relative specifier names, from the file at `from`. */
function resolveSpecifier(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.(m?js)$/, '.d.ts'), `${base}.d.ts`, join(base, 'index.d.ts')];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

const reached = new Set();
const pending = [entry];
while (pending.length > 0) {
  const file = pending.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolveSpecifier(file, match[1]);
    if (target === undefined) console.warn(`unresolved: ${match[1]} in ${relative('.', file)}`);
    else pending.push(target);
  }
}

/** Every `.d.ts` under `dir`. */
function allDeclarations(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return allDeclarations(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// The entry's own export list: `export { a, type B } from`, `export type { C } from`, and
// declarations (`export declare function d`, `export interface E`, ...).
const text = readFileSync(entry, 'utf8');
const names = new Map();
for (const match of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
  for (const raw of match[2].split(',')) {
    const spec = raw.trim();
    if (spec === '') continue;
    const isType = match[1] !== undefined || spec.startsWith('type ');
    const name = spec
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/)
      .pop();
    names.set(name, isType ? 'type' : 'value');
  }
}
for (const match of text.matchAll(
  /export\s+(?:declare\s+)?(?:abstract\s+)?(const|let|var|function|class|enum|interface|type|namespace)\s+([\w$]+)/g,
)) {
  names.set(match[2], match[1] === 'interface' || match[1] === 'type' ? 'type' : 'value');
}
if (/export\s*\*/.test(text)) console.warn('the entry has `export *`: its names are not counted');

const values = [...names.values()].filter((kind) => kind === 'value').length;
const srcFiles = allDeclarations(root).filter((file) => !file.includes(`${join(root, 'test')}`));
console.log(`entry:          ${relative('.', entry)}`);
console.log(`exports:        ${names.size} names, ${values} values, ${names.size - values} types only`);
console.log(`.d.ts reached:  ${reached.size} of ${srcFiles.length} (files under ${root}, tests excluded)`);
if (process.argv.includes('--list')) {
  for (const file of [...reached].sort()) console.log(`  ${relative(root, file)}`);
}
