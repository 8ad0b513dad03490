/**
 * `npm run bench:transfer [-- SESSIONS EVENTS]` (default 1000 x 100): imports
 * then exports a generated file, in Node (fake-indexeddb, in-thread) and in
 * headless Chromium with a fresh on-disk profile (a dedicated worker, then
 * in-thread), and prints the figures as a Markdown table.
 */
// IndexedDB's globals (IDBKeyRange, IDBRequest) for the Node run, as the Node tests have them.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IDBFactory } from 'fake-indexeddb';
import { chromium } from 'playwright';
import { build, preview } from 'vite';
import { IndexedDbSessionService } from '../../src/index.js';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { type Figures, measureTransfer } from './measure.js';

const count = Number(process.argv[2] ?? 1000);
const eventsEach = Number(process.argv[3] ?? 100);
const here = path.dirname(fileURLToPath(import.meta.url));
const log = (message: string): void => {
  process.stderr.write(`[transfer ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
};

async function inNode(): Promise<Figures> {
  const store = new IndexedDbSessionService({ indexedDB: new IDBFactory(), dbName: 'transfer-bench' });
  try {
    return await measureTransfer(store, count, eventsEach, () => process.memoryUsage().heapUsed);
  } finally {
    await store.close();
  }
}

async function inChromium(): Promise<[string, Figures][]> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'transfer-bench-dist-'));
  const profile = await mkdtemp(path.join(os.tmpdir(), 'transfer-bench-profile-'));
  await build({
    configFile: false,
    root: here,
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
    worker: { format: 'es' },
  });
  const server = await preview({
    configFile: false,
    root: here,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
  });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
    headless: true,
  });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(server.resolvedUrls?.local[0] ?? '');
    const results: [string, Figures][] = [];
    for (const mode of ['dedicated', 'in-thread'] as const) {
      log(`Chromium, ${mode}`);
      results.push([
        `Chromium, ${mode === 'dedicated' ? 'dedicated worker' : 'in-thread'}`,
        await page.evaluate(([m, c, e]) => window.runTransfer(m, c, e), [mode, count, eventsEach] as const),
      ]);
    }
    return results;
  } finally {
    await context.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    await rm(profile, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
function row(label: string, f: Figures): string {
  const heap = f.exportHeapGrowthMB === undefined ? 'n/a' : `${f.exportHeapGrowthMB.toFixed(1)} MB`;
  return `| ${label} | ${s(f.readParseMs)} | ${s(f.validateMs)} | ${s(f.toFirstWriteMs)} | ${s(f.writeMs)} | **${s(f.importMs)}** | ${s(f.importStallMs)} | **${s(f.exportMs)}** | ${s(f.exportStallMs)} | ${heap} |`;
}

log(`${count} sessions x ${eventsEach} events, Node`);
const rows: [string, Figures][] = [['Node 20, fake-indexeddb, in-thread', await inNode()]];
rows.push(...(await inChromium()));
const first = rows[0]?.[1] as Figures;
console.log(
  `\n${first.sessions} sessions x ${eventsEach} events = ${first.events} events, file ${first.fileMB.toFixed(1)} MB\n`,
);
console.log(
  '| where | read + parse | validate (page side) | parsed → first session written | rest of the transaction | import total | longest stall (import) | export total | longest stall (export) | export heap growth |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [label, figures] of rows) console.log(row(label, figures));
