/**
 * The inspector in an app built from the installed tarball, as its docs show:
 * `mountInspector(store)` in one line. The app's page bundle grows by at most
 * 1 KB gzip (the views are a chunk fetched on first open, and not before); the
 * page is served with a strict Content-Security-Policy and the inspector runs
 * under it without one violation; it shows the app's own session.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright';
import type { Plugin } from 'vite';
import { build } from 'vite';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { gzipBytes, loadedBy } from './chunks.js';
import { launchChromium } from './examples.js';
import { serveStatic } from './setups.js';

const CSP = "default-src 'self'";

/** What a host that sets a strict policy does: every response carries it. */
const strictCsp: Plugin = {
  name: 'strict-csp',
  configurePreviewServer(server) {
    server.middlewares.use((_request, response, next) => {
      response.setHeader('Content-Security-Policy', CSP);
      next();
    });
  },
};

let browser: Browser;
const app = () => inject('consumerDir');
const built: Record<string, string> = {};

async function buildPage(page: 'inspector' | 'inspector-base'): Promise<string> {
  const outDir = path.join(app(), `out-${page}`);
  await build({
    root: app(),
    configFile: false,
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, rollupOptions: { input: path.join(app(), `${page}.html`) } },
  });
  return outDir;
}

beforeAll(async () => {
  browser = await launchChromium();
  built.inspector = await buildPage('inspector');
  built.base = await buildPage('inspector-base');
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

const assets = (dir: string) => path.join(dir, 'assets');
const entryOf = (dir: string, prefix: string) => {
  const entry = readdirSync(assets(dir)).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!entry) throw new Error(`no ${prefix} chunk in ${dir}`);
  return entry;
};

it('grows the page bundle by at most 1 KB gzip; the views are a chunk of their own', () => {
  const base = loadedBy(assets(built.base as string), entryOf(built.base as string, 'inspector-base-'));
  const withIt = loadedBy(assets(built.inspector as string), entryOf(built.inspector as string, 'inspector-'));
  const baseBytes = gzipBytes(assets(built.base as string), base.startup);
  const bytes = gzipBytes(assets(built.inspector as string), withIt.startup);
  // The chunks only the inspector's page loads lazily: the views and Preact.
  const baseLazy = new Set(base.lazy.map((f) => f.replace(/-[\w-]{8}\.js$/, '')));
  const views = withIt.lazy.filter((f) => !baseLazy.has(f.replace(/-[\w-]{8}\.js$/, '')));
  const viewBytes = gzipBytes(assets(built.inspector as string), views);
  console.info(
    `page start-up ${baseBytes} B gzip without the inspector, ${bytes} B with it (+${bytes - baseBytes} B); ` +
      `inspector views on first open: ${views.join(', ')}, ${viewBytes} B gzip`,
  );
  // The button, the shadow host, the typed load error and the handle (open, close, toggle,
  // showSession, destroy); the bundler's preload list names the views' chunks. The open panel's
  // placement rules come with the views, and nothing the live queries alone use is in a module
  // the page loads (933 B when written).
  expect(bytes - baseBytes).toBeLessThanOrEqual(1024);
  expect(views.length).toBeGreaterThan(0);
  expect(viewBytes).toBeGreaterThan(5_000);
});

it("mounts in one line under a strict CSP, loads its views on first open, and shows the app's session", async () => {
  const server = await serveStatic(built.inspector as string, { plugins: [strictCsp] });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // Registered before any of the page's scripts run; init scripts are not subject to the page's policy.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    const response = await page.goto(new URL('inspector.html', server.url).href);
    expect(response?.headers()['content-security-policy']).toBe(CSP);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
    const before = fetched.length;
    const toggle = page.getByRole('button', { name: 'Session inspector' });
    await toggle.waitFor();
    const fetchedBeforeOpen = [...fetched];

    await toggle.click();
    const panel = page.getByRole('region', { name: 'Session inspector' });
    await expect.poll(() => panel.getByText('hello from the fixture app').count(), { timeout: 30_000 }).toBe(1);
    expect(await panel.getByRole('combobox', { name: 'App' }).inputValue()).toBe('fixture-app');
    // Its views came on opening, not with the page.
    expect(fetched.length).toBeGreaterThan(before);
    const opened = fetched.slice(fetchedBeforeOpen.length);
    expect(opened.some((p) => p.endsWith('.js'))).toBe(true);

    // The app's own styles never reach into it: a page rule on every button leaves its buttons alone.
    await page.evaluate(() => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('button { font-size: 40px !important; }');
      document.adoptedStyleSheets = [sheet];
    });
    const size = await panel.getByRole('button', { name: 'Close' }).evaluate((b) => getComputedStyle(b).fontSize);
    expect(size).toBe('13px');

    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  } finally {
    await context.close();
    await server.close();
  }
});

it('rejects an open whose views cannot be fetched with InspectorLoadError, and the next open loads them', async () => {
  const server = await serveStatic(built.inspector as string, { plugins: [strictCsp] });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const unhandled: string[] = [];
    page.on('pageerror', (error) => unhandled.push(error.message));
    await page.goto(new URL('inspector.html', server.url).href);
    await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
    // Offline, or a redeploy removed the chunk: every script fetched from now on fails.
    const blocked = (route: { abort(): Promise<void> }) => route.abort();
    await page.route(/\.js(\?|$)/, blocked);

    const failed = await page.evaluate(async () => {
      const { inspector } = window as unknown as { inspector: { open(): Promise<void>; isOpen: boolean } };
      try {
        await inspector.open();
        return { rejected: false };
      } catch (error) {
        const e = error as Error & { code?: string; cause?: unknown };
        return {
          rejected: true,
          name: e.name,
          code: e.code,
          cause: e.cause instanceof Error ? e.cause.name : String(e.cause),
          isOpen: inspector.isOpen,
        };
      }
    });
    expect(failed).toEqual({
      rejected: true,
      name: 'InspectorLoadError',
      code: 'LOAD_FAILED',
      cause: 'TypeError',
      isOpen: false,
    });
    // The empty panel is closed and the button is back for the next try; a click that fails again leaves no
    // unhandled rejection.
    const toggle = page.getByRole('button', { name: 'Session inspector' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');

    // Back online: the next open fetches the views and shows the app's session.
    await page.unroute(/\.js(\?|$)/, blocked);
    await toggle.click();
    const panel = page.getByRole('region', { name: 'Session inspector' });
    await expect.poll(() => panel.getByText('hello from the fixture app').count(), { timeout: 30_000 }).toBe(1);
    expect(unhandled).toEqual([]);
  } finally {
    await context.close();
    await server.close();
  }
});
