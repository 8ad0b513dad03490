/**
 * The installed package in a browser, built by each bundler its users use: every
 * mode writes, the page reloads, and the data is read back. Fails if a bundler
 * cannot find or start the store's worker.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright';
import { build as viteBuild } from 'vite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { gzipBytes, loadedBy, readChunk, workerEntryIn } from './chunks.js';
import { type Served, setups } from './setups.js';

const app = inject('consumerDir');
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});
afterAll(async () => {
  await browser?.close();
});

declare global {
  interface Window {
    consumer: {
      write(mode: string, sessionId: string, worker?: string): Promise<{ mode: string }>;
      read(
        mode: string,
        sessionId: string,
        worker?: string,
      ): Promise<{ mode: string; texts: string[] | null; state: unknown }>;
      recall(mode: string, sessionId: string, worker?: string): Promise<{ searched: string[]; remembered: string[] }>;
      brokenWorker(url: string): Promise<string>;
      keepOpen(mode: string): Promise<string>;
    };
  }
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => window.consumer !== undefined, undefined, { timeout: 30_000 });
}

/** Builds and serves the app with one setup, opens it in a fresh context, runs `steps`, tears down. */
async function onPage(setup: string, steps: (page: Page) => Promise<void>): Promise<void> {
  const served = await setups[setup]?.(app);
  if (!served) throw new Error(`no setup "${setup}"`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await open(page, served.url);
    await steps(page);
  } finally {
    await context.close();
    await served.close();
  }
}

/** A message only each part of the worker holds: where it is found, that part's code is. */
const LAZY_PARTS = {
  artifacts: 'artifact.inlineData.data: must be base64',
  search: 'search is turned off',
  memory: 'addSessionToMemory',
  sync: 'onStatus must be a function',
  imports: 'an event id is given twice in one session',
  drafts: 'was taken over by another writer',
};
const STARTUP_MARKER = 'the client must say hello before any other call';

/** The parts of the worker whose code `files` hold. */
const partsIn = (dir: string, files: readonly string[]): string[] =>
  Object.entries(LAZY_PARTS)
    .filter(([, marker]) => files.some((f) => readChunk(dir, f).includes(marker)))
    .map(([part]) => part);

const expectedMode = { auto: 'shared', shared: 'shared', dedicated: 'dedicated', 'in-thread': 'in-thread' } as const;

describe.each(Object.keys(setups))('%s', (name) => {
  let served: Served;
  beforeAll(async () => {
    served = await (setups[name] as (app: string) => Promise<Served>)(app);
  }, 120_000);
  afterAll(async () => {
    await served?.close();
  });

  it('every mode writes, survives a reload and reads back', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const failed: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400 && !r.url().endsWith('favicon.ico')) failed.push(`${r.status()} ${r.url()}`);
      });
      await open(page, served.url);
      for (const [mode, actual] of Object.entries(expectedMode)) {
        expect(await page.evaluate((m) => window.consumer.write(m, `s-${m}`), mode)).toEqual({ mode: actual });
      }
      await page.reload();
      await open(page, served.url);
      for (const [mode, actual] of Object.entries(expectedMode)) {
        expect(await page.evaluate((m) => window.consumer.read(m, `s-${m}`), mode)).toEqual({
          mode: actual,
          texts: [`hello from ${mode}`],
          state: { mode, 'user:seen': true },
        });
      }
      // Search and memory: in the worker, code loaded on first use (from chunks of its own where the build splits).
      for (const mode of Object.keys(expectedMode)) {
        expect(await page.evaluate((m) => window.consumer.recall(m, `s-${m}`), mode)).toEqual({
          searched: [`hello from ${mode}`],
          remembered: [`hello from ${mode}`],
        });
      }
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the page bundle (vite build)', () => {
  it('leaves the engine out of the page chunk: in-thread mode loads it on first use', async () => {
    const served = await setups['vite build']?.(app);
    await served?.close();
    const assets = path.join(app, 'out-vite/assets');
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    // The schema's index names stand for the engine: only the engine and the worker create or upgrade the
    // database (the page's first reads open it as it is, and read it with code of their own chunk).
    const withEngine = chunks.filter((f) => readFileSync(path.join(assets, f), 'utf8').includes('byUserTime'));
    const page = chunks.filter((f) => f.startsWith('index-'));
    expect(page).toHaveLength(1);
    expect(withEngine).not.toContain(page[0]);
    expect(withEngine.length).toBe(2); // the worker, and the in-thread engine's own chunk
  });

  it('keeps the page and the worker within their size budgets', async () => {
    for (const setup of ['vite build, worker.format es', 'webpack 5']) await (await setups[setup]?.(app))?.close();
    const sizes = (dir: string, entry: (chunks: string[]) => string) => {
      const worker = loadedBy(dir, entry(readdirSync(dir).filter((f) => f.endsWith('.js'))));
      return {
        startup: gzipBytes(dir, worker.startup),
        lazy: worker.lazy.map((f) => `${f} ${gzipBytes(dir, [f])} B`),
        inStartup: partsIn(dir, worker.startup),
      };
    };
    const prefixed = (prefix: string) => (chunks: string[]) => chunks.find((f) => f.startsWith(prefix)) as string;
    const vite = path.join(app, 'out-vite-es/assets');
    const page = gzipBytes(vite, loadedBy(vite, prefixed('index-')(readdirSync(vite))).startup);
    const es = sizes(vite, () => workerEntryIn(vite));
    const iife = sizes(path.join(app, 'out-vite/assets'), () => workerEntryIn(path.join(app, 'out-vite/assets')));
    const shipped = sizes(path.join(app, 'node_modules/idb-adk-sessions/dist/worker'), () => 'store.js');
    // webpack names chunks by number and loads them with its own runtime: its worker is the chunk that says hello.
    const webpackDir = path.join(app, 'out-webpack');
    const webpackWorker = readdirSync(webpackDir).find(
      (f) => f.endsWith('.js') && readChunk(webpackDir, f).includes(STARTUP_MARKER),
    ) as string;
    const webpack = {
      startup: gzipBytes(webpackDir, [webpackWorker]),
      inStartup: partsIn(webpackDir, [webpackWorker]),
    };
    console.info(
      `page ${page} B gzip; worker start-up (gzip): vite es ${es.startup} B, dist/worker ${shipped.startup} B,` +
        ` webpack ${webpack.startup} B, vite iife (one file) ${iife.startup} B; lazy chunks (vite es): ${es.lazy.join(', ')}`,
    );
    // Raised from 12,000 B by fixes the page must carry: typed errors keep their own fields across the
    // worker, a Date timestamp is named as one, a loaded Part is rebuilt whole with its base64 as
    // written, and in-thread mode fetches its parts while online (about 500 B gzip in all). Raised to
    // 12,600 B for rewind: its method forwarded, and an error code whose class the page never loaded
    // (InvocationNotFoundError lives apart) arriving as a typed SessionStoreError (12,492 -> 12,509 B).
    // Raised to 13,700 B for the cold start (12,509 -> 13,544 B): the page opens the database for its
    // first reads before anything else, and starts the worker once the first read is answered (a
    // worker starting beside the read made it nearly twice as slow); the reads' code is a chunk.
    // Raised to 14,000 B for what that start must not lose (13,544 -> 13,818 B): a worker its
    // constructor refuses rejects calls in words, a held-up read holds nothing up long, and a
    // request is taken when the call is made. Raised to 14,500 B for `store.drafts` (14,284 B): its
    // calls forwarded to a chunk fetched after start (the writer, its fold and its locks are not here)
    // and the final append that removes its draft in the same transaction.
    expect(page).toBeLessThan(14_500);
    // Module workers split: artifacts, search, memory, sync, imports, compaction reads and sealing are chunks
    // fetched after start-up.
    // Budgets raised by 500 B when appends began naming only the stores they write (+45 B, an
    // append 15 % faster); growth past them needs a reason of the same kind.
    for (const worker of [es, shipped, webpack]) {
      expect(worker.inStartup).toEqual([]);
      // Raised to 26,000 B by the same kind of fixes (about 900 B raw, 400 B gzip): ids refused when
      // not well-formed UTF-16, times in seconds refused, error fields on the wire, and the warm-up
      // that fetches the parts after the first answer so their first use works offline. Raised to
      // 26,500 B for erase: its request check, its method, and the memory and search hooks that join
      // its transaction (their code is a chunk of its own) (vite es 26,033, dist 26,095, webpack 26,140 B).
      // Raised to 27,000 B for drafts (vite es 26,422, dist 26,494, webpack 26,527 B): the schema step
      // making their stores, the append that removes a finished draft in its own transaction, and the
      // clean-up removing a deleted session's drafts; the drafts' engine and checks are a chunk.
      expect(worker.startup).toBeLessThan(27_000);
    }
    expect(es.lazy.length).toBeGreaterThanOrEqual(4);
    // A classic worker is one file: everything inlined.
    expect(iife.lazy).toEqual([]);
    expect(iife.inStartup).toEqual(Object.keys(LAZY_PARTS));
    // Raised from 46,500 B (gzip, measured with rolldown) for whole-cluster folding, function words
    // of seven languages, prefix, typo and word-form matching in search and memory (+3.6 KB); Parts
    // kept whole in artifacts (+1.2 KB); eventsource-parser reading the change stream as the SSE spec
    // has it (+1.3 KB). Module workers fetch all of it after start-up, not in it. Raised to 55,000 B for the
    // compaction read and sealing (+1.2 KB, 52,926 -> 54,125 B), and to 56,000 B for rewind with the
    // initial state it restores and the artifact versions it writes (+1.4 KB, 54,361 -> 55,768 B), and
    // to 57,500 B for erase and what it removes beside the events (memory entries, saved search shards;
    // 57,096 B, its three chunks 1.9 KB), and to 58,500 B for erasures over sync (sending this
    // device's, applying the server's, the guard for a push answered late: 57,108 -> 58,332 B), and to
    // 61,000 B for drafts (their engine, request checks and hooks: 58,289 -> 60,369 B), and to
    // 61,500 B for erase keeping the state writes still in effect, with erasures batched to the
    // server's body cap (+0.4 KB), and drafts' previews to other tabs and tail reads (+0.35 KB):
    // 60,369 -> 61,129 B.
    expect(iife.startup).toBeLessThan(61_500);
  });

  it('ships in dist/worker/ only the worker and the chunks it loads', () => {
    const shipped = path.join(app, 'node_modules/idb-adk-sessions/dist/worker');
    const { startup, lazy } = loadedBy(shipped, 'store.js');
    const files = readdirSync(shipped).filter((f) => f.endsWith('.js'));
    expect([...startup, ...lazy].sort()).toEqual(files.sort());
  });

  it('fetches artifacts, search, memory and sync after start-up, unasked, so a first use needs no network (module workers)', async () => {
    await onPage('vite build, worker.format es', async (page) => {
      const fetched: { url: string; at: number }[] = [];
      page.context().on('request', (r) => {
        fetched.push({ url: r.url(), at: Date.now() });
      });
      const dir = path.join(app, 'out-vite-es/assets');
      const { lazy } = loadedBy(dir, workerEntryIn(dir));
      const holding = (marker: string) => lazy.filter((f) => readChunk(dir, f).includes(marker));
      const parts = Object.values(LAZY_PARTS).map(holding);
      for (const part of parts) expect(part).toHaveLength(1);
      const when = (file: string) => fetched.find(({ url }) => url.endsWith(`/${file}`))?.at;

      // A store kept open, as an app keeps it, asked only for sessions.
      expect(await page.evaluate(() => window.consumer.keepOpen('dedicated'))).toBe('dedicated');
      await expect.poll(() => parts.flat().filter((f) => when(f) === undefined), { timeout: 15_000 }).toEqual([]);
      // Not in start-up: the worker asks for them a second after its first answer (WARM_DELAY_MS), so
      // well after its entry was fetched (half that, for the delay of the browser's reports).
      const entry = fetched.find(({ url }) => /\/store-[\w-]+\.js$/.test(url))?.at as number;
      for (const file of parts.flat()) expect(when(file) as number).toBeGreaterThanOrEqual(entry + 500);
    });
  });
});

describe('the escape hatch: openSessionStore({ worker })', () => {
  it('starts a served copy of the worker from its URL, or uses a Worker / SharedWorker started by the app', async () => {
    // esbuild's output has the worker copied beside the bundle, at ./worker/store.js.
    await onPage('esbuild + copied worker', async (page) => {
      for (const [mode, worker] of [
        ['shared', './worker/store.js'],
        ['dedicated', './worker/store.js'],
        ['shared', 'instance'],
        ['dedicated', 'instance'],
        // Another URL for the same file: the chunks it loads later must still join this worker, not start another.
        ['dedicated', './worker/store.js?v=2'],
      ] as const) {
        const args = { m: mode, w: worker, s: `hatch-${mode}-${worker}` };
        expect(await page.evaluate(({ m, w, s }) => window.consumer.write(m, s, w), args)).toEqual({ mode });
        expect(await page.evaluate(({ m, w, s }) => window.consumer.read(m, s, w), args)).toMatchObject({
          mode,
          texts: [`hello from ${mode}`],
        });
        expect(await page.evaluate(({ m, w, s }) => window.consumer.recall(m, s, w), args)).toEqual({
          searched: [`hello from ${mode}`],
          remembered: [`hello from ${mode}`],
        });
      }
    });
  });
});

describe('a worker that cannot start', () => {
  it('names the URL, the cause and the fix', async () => {
    await onPage('vite build', async (page) => {
      const message = await page.evaluate(() => window.consumer.brokenWorker('/missing/store.js'));
      expect(message).toMatch(/^StoreClosedError: the store worker at \/missing\/store\.js failed to start: /);
      expect(message).toMatch(/answered 404|served as "text\/html"/);
      expect(message).toContain('openSessionStore({ worker: url })');
    });
  });
});

describe('the /tanstack-ai subpath', () => {
  it('builds into a fresh app with Vite, loading nothing of @tanstack/ai-client (it imports only its types)', async () => {
    const dir = path.join(app, 'tanstack-app');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
    writeFileSync(
      path.join(dir, 'main.js'),
      [
        "import { openSessionStore } from 'idb-adk-sessions';",
        "import { chatClientPersistence, isInterrupted } from 'idb-adk-sessions/tanstack-ai';",
        "const persistence = chatClientPersistence(openSessionStore({ dbName: 'tanstack' }), { appName: 'chat', userId: 'ada' });",
        'window.tanstack = { persistence, isInterrupted };',
      ].join('\n'),
    );
    const outDir = path.join(dir, 'out');
    await viteBuild({ root: dir, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    // The fixture app does not install the optional peer: the build needs none of it.
    expect(existsSync(path.join(app, 'node_modules/@tanstack/ai-client'))).toBe(false);
    const assets = path.join(outDir, 'assets');
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const page = chunks.find((f) => f.startsWith('index-')) as string;
    expect(readChunk(assets, page)).toContain('tanstackAi'); // the adapter's metadata key: its code is in the page
    for (const chunk of chunks) expect(readChunk(assets, chunk)).not.toContain('@tanstack/');
  }, 120_000);
});
