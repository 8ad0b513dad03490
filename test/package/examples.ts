/**
 * What every example's test does the same way: the example as installed in the
 * consumer app (test/package/setup.ts copies examples/ there, beside the tarball),
 * built in-process by Vite with the example's own vite.config.ts, type-checked by
 * its own tsconfig.json with the TypeScript it pins, and one Chromium per test file.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright';
import { build } from 'vite';
import { inject } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';

/** The example's folder in the consumer app. */
export const exampleDir = (name: string): string => path.join(inject('consumerDir'), 'examples', name);

/** `vite build` in the example's folder, with its config; returns the output folder. */
export async function buildExample(name: string): Promise<string> {
  const root = exampleDir(name);
  const outDir = path.join(root, 'dist');
  await build({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** `tsc --noEmit` in the example's folder: its strict tsconfig, against the installed package's declarations. */
export function typecheckExample(name: string): { status: number | null; output: string } {
  const root = exampleDir(name);
  const tsc = path.join(inject('consumerDir'), 'node_modules/.bin/tsc');
  const run = spawnSync(tsc, ['--noEmit', '-p', root], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/** The texts of a list's items, as the user reads them. */
export const itemTexts = (page: Page, list: string): Promise<string[]> =>
  page
    .getByRole('list', { name: list, exact: true })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((li) => li.textContent ?? ''));
