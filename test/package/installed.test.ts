/**
 * The packed tarball as npm, Node and TypeScript see it: what it holds, what
 * publint and Are-the-types-wrong say of it, a Node script that uses it, and a
 * user's file type-checked under both module resolutions people use.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { publint } from 'publint';
import { describe, expect, inject, it } from 'vitest';

const app = inject('consumerDir');
const tarball = inject('tarball');
const bin = (name: string) => path.resolve('node_modules/.bin', name);

describe('the tarball', () => {
  it('holds the library only: its modules, the worker, declarations, package.json, README and LICENSE', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    const library = /^dist\/(?!demo\/|types\/)[\w/-]+\.js(\.map)?$|^dist\/types\/(src|worker)\/[\w/-]+\.d\.ts$/;
    expect(files.filter((f) => !library.test(f)).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
    for (const entry of [
      'dist/index.js',
      'dist/adk.js',
      'dist/react.js',
      'dist/worker/store.js',
      'dist/types/src/index.d.ts',
    ]) {
      expect(files).toContain(entry);
    }
    // The page-side client and the in-thread engine are separate modules, so bundlers can keep them apart.
    expect(files).toContain('dist/sessions/engine.js');
  });

  it('passes publint with no errors or warnings', async () => {
    const { messages } = await publint({ pkgDir: path.join(app, 'node_modules/idb-adk-sessions'), level: 'warning' });
    expect(messages).toEqual([]);
  });

  it('passes Are-the-types-wrong for an ES-module-only package', () => {
    const run = spawnSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).not.toMatch(/❌|Error/);
    expect(run.status).toBe(0);
  });
});

describe('in Node', () => {
  it('a script that never calls close() exits on its own', () => {
    const run = spawnSync(process.execPath, ['node-consumer.mjs'], { cwd: app, encoding: 'utf8', timeout: 30_000 });
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('{"step":1}');
    expect(run.status).toBe(0);
  });

  it.each([
    ['a bare factory', 'bare'],
    ['a factory and its IDBKeyRange', 'native'],
  ])('runs on %s with no IndexedDB globals, range reads and paging included', (_, how) => {
    const run = spawnSync(process.execPath, ['node-no-globals.mjs', how], {
      cwd: app,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      globals: 'undefined',
      recent: ['e2', 'e3'],
      state: { 'user:name': 'Ada', step: 3 },
      page2: ['s1'],
      left: ['s2'],
    });
    expect(run.status).toBe(0);
  });
});

describe.each(['bundler', 'node16'])('TypeScript, moduleResolution %s', (resolution) => {
  it('resolves and types the main entry and the /adk, /vite, /react, /ai-sdk, /ai-sdk/react, /inspector and /inspector/react subpaths', () => {
    const config = path.join(app, `tsconfig.${resolution}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: resolution === 'bundler' ? 'ESNext' : 'Node16',
          moduleResolution: resolution,
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          // ADK's own declarations need skipLibCheck (they name optional peers it does not install).
          skipLibCheck: true,
          types: [],
        },
        files: ['types-check.ts'],
      }),
    );
    const run = spawnSync(bin('tsc'), ['-p', config], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
