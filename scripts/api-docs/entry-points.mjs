// @ts-check
/**
 * The package's public entry points, read from package.json's `exports`: each subpath's declaration
 * file (`./dist/types/src/react/index.d.ts`) names the source it is built from (`src/react/index.ts`).
 * The API reference follows `exports` by itself when an entry point is added or moved.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

/** @type {{ specifier: string, source: string }[]} */
export const entryPoints = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && typeof target.types === 'string')
  .map(([subpath, target]) => {
    const base = target.types.replace(/^\.\/dist\/types\//, '').replace(/\.d\.ts$/, '');
    const source = [`${base}.ts`, `${base}.tsx`].find((path) => existsSync(`${root}${path}`));
    if (!source) throw new Error(`package.json exports["${subpath}"]: no source for ${target.types}`);
    return { specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source };
  });
