/**
 * The installed package in a browser, built by each bundler its users use: every
 * mode writes, the page reloads, and the data is read back. Fails if a bundler
 * cannot find or start the store's worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
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
      brokenWorker(url: string): Promise<string>;
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
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the page bundle (vite build)', () => {
  it('leaves the engine and IndexedDB code out of the page chunk: in-thread mode loads them on first use', async () => {
    const served = await setups['vite build']?.(app);
    await served?.close();
    const assets = path.join(app, 'out-vite/assets');
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    // The schema's index names stand for the engine: only the engine and the worker open the database.
    const withEngine = chunks.filter((f) => readFileSync(path.join(assets, f), 'utf8').includes('byUserTime'));
    const page = chunks.filter((f) => f.startsWith('index-'));
    expect(page).toHaveLength(1);
    expect(withEngine).not.toContain(page[0]);
    expect(withEngine.length).toBe(2); // the worker, and the in-thread engine's own chunk
  });

  it('keeps the page and the worker within their size budgets', () => {
    const assets = path.join(app, 'out-vite/assets');
    const read = (f: string): string => readFileSync(path.join(assets, f), 'utf8');
    const gz = (f: string): number => gzipSync(read(f), { level: 9 }).length;
    const chunks = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const entry = chunks.find((f) => f.startsWith('index-')) as string;
    // What the page loads before any call: its chunk and the chunks that chunk imports statically.
    const loaded = new Set([entry]);
    for (const f of loaded) for (const m of read(f).matchAll(/from"\.\/([\w.-]+\.js)"/g)) loaded.add(m[1] as string);
    const page = [...loaded].reduce((sum, f) => sum + gz(f), 0);
    const worker = gz(chunks.find((f) => f.startsWith('store-')) as string);
    console.info(`page ${page} B gzip (${[...loaded].join(', ')}), worker ${worker} B gzip`);
    expect(page).toBeLessThan(12_000);
    // The worker holds search (MiniSearch, 6.5 KB of it) and memory, about 11 KB gzip, and sync's engine,
    // about 6 KB: loaded on first use where the app's bundler splits worker chunks, inlined where it
    // builds the worker as one file (Vite's default). 26 KB without them.
    expect(worker).toBeLessThan(46_000);
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
      ] as const) {
        const args = { m: mode, w: worker, s: `hatch-${mode}-${worker}` };
        expect(await page.evaluate(({ m, w, s }) => window.consumer.write(m, s, w), args)).toEqual({ mode });
        expect(await page.evaluate(({ m, w, s }) => window.consumer.read(m, s, w), args)).toMatchObject({
          mode,
          texts: [`hello from ${mode}`],
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
