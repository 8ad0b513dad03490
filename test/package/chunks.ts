/**
 * What a built app loads, read from its ES-module output: a chunk's static
 * imports load with it, its `import()`s only when that code runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const STATIC = /(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g;
const DYNAMIC = /import\(\s*["'`]\.\/([\w.-]+\.js)["'`]\s*\)/g;

export interface Loaded {
  /** The entry and what it imports statically: what start-up fetches and runs. */
  startup: string[];
  /** Chunks reached only through `import()`, with what they import that start-up did not load. */
  lazy: string[];
}

export function readChunk(dir: string, file: string): string {
  return readFileSync(path.join(dir, file), 'utf8');
}

export function gzipBytes(dir: string, files: readonly string[]): number {
  return files.reduce((sum, f) => sum + gzipSync(readChunk(dir, f), { level: 9 }).length, 0);
}

function closure(dir: string, from: Iterable<string>, skip: ReadonlySet<string> = new Set()): Set<string> {
  const found = new Set([...from].filter((f) => !skip.has(f)));
  for (const f of found) {
    for (const m of readChunk(dir, f).matchAll(STATIC)) if (!skip.has(m[1] as string)) found.add(m[1] as string);
  }
  return found;
}

export function loadedBy(dir: string, entry: string): Loaded {
  const startup = closure(dir, [entry]);
  const lazy = new Set<string>();
  const seen = new Set(startup);
  for (const f of seen) {
    for (const m of readChunk(dir, f).matchAll(DYNAMIC)) {
      for (const c of closure(dir, [m[1] as string], startup)) {
        lazy.add(c);
        seen.add(c);
      }
    }
  }
  return { startup: [...startup], lazy: [...lazy] };
}

/**
 * The store worker's entry in an app's output: `store-<hash>.js`, the name a bundler gives the
 * package's `worker/store.js`; not a chunk of the worker's own named `store-…` (`store-engine-<hash>.js`).
 */
export function workerEntryIn(dir: string): string {
  const entries = readdirSync(dir).filter((f) => /^store-[\w-]{8}\.js$/.test(f));
  if (entries.length !== 1) throw new Error(`expected one store worker entry in ${dir}, found ${entries.join(', ')}`);
  return entries[0] as string;
}
