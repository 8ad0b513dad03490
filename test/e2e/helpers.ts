/**
 * Driving the built demo page in a real browser (the engine the e2e project names, see
 * scripts/engines): launching, and the few UI
 * steps tests share. Everything is found the way a user (or a screen reader)
 * finds it: by role and accessible name.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { engine } from '../../scripts/engines/index.js';

/** Screenshots and files the tests write, kept for looking at (ignored by git). */
export const ARTEFACTS = 'test-results/e2e';

/** The engine this e2e project runs in (`E2E_ENGINE`, set per project in vite.config.ts). */
export const testedEngine = engine();

export function launch(): Promise<Browser> {
  return testedEngine.browserType.launch({ ...testedEngine.launchOptions, headless: true });
}

export interface OpenedPage {
  page: Page;
  /** Messages the page logged as errors, and uncaught exceptions. */
  errors: string[];
  /** `alert`/`confirm`/`prompt` dialogs the page opened (none are expected). */
  dialogs: string[];
}

/** A tab on the demo, ready once the inspector has read the store. */
export async function openDemo(context: BrowserContext, query = ''): Promise<OpenedPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${inject('demoUrl')}${query}`);
  await page.locator('html[data-ready="true"]').waitFor();
  return { page, errors, dialogs };
}

/**
 * One browser for the test file and a fresh browser profile for each test. After each
 * test, every tab it opened must have had no page errors and no alert/confirm dialog.
 * `open(query)` opens another tab of the demo in the test's profile.
 */
export function demoTabs(): { open(query?: string): Promise<OpenedPage> } {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let tabs: OpenedPage[] = [];
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const tab of tabs) {
      expect(tab.errors).toEqual([]);
      expect(tab.dialogs).toEqual([]);
    }
    tabs = [];
    await context?.close();
    context = undefined;
  });
  return {
    async open(query = '') {
      if (!browser) throw new Error('demoTabs: the browser is not launched yet');
      context ??= await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const tab = await openDemo(context, query);
      tabs.push(tab);
      return tab;
    },
  };
}

export function button(scope: Page | Locator, name: string): Locator {
  return scope.getByRole('button', { name, exact: true });
}

/** A path under the artefacts folder (created if need be) for a file a test writes. */
export function artefact(name: string): string {
  mkdirSync(ARTEFACTS, { recursive: true });
  return `${ARTEFACTS}/${name}`;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: artefact(`${name}.png`) });
}

/** Creates a session through the New session dialog; the page then shows it. */
export async function createSession(
  page: Page,
  options: { app: string; user: string; id?: string; state?: string },
): Promise<void> {
  await button(page, 'New session').click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('App name').fill(options.app);
  await dialog.getByLabel('User id').fill(options.user);
  if (options.id) await dialog.getByLabel('Session id').fill(options.id);
  if (options.state) await dialog.getByLabel('Initial state (JSON)').fill(options.state);
  await button(dialog, 'Create').click();
  await dialog.waitFor({ state: 'detached' });
  if (options.id) await sessionTitle(page).filter({ hasText: options.id }).waitFor();
}

export function sessionTitle(page: Page): Locator {
  return page.getByRole('region', { name: 'Session', exact: true }).getByRole('heading', { level: 2 });
}

export function timeline(page: Page): Locator {
  return page.getByRole('list', { name: 'Events', exact: true });
}

export function events(page: Page): Locator {
  return timeline(page).locator('li.event');
}

/** Sends a message to the demo agent and waits until the turn's events are shown. */
export async function chat(page: Page, text: string, expectedEvents: number): Promise<void> {
  const before = await events(page).count();
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await button(page, 'Send').click();
  await expect.poll(() => events(page).count(), { timeout: 10_000 }).toBe(before + expectedEvents);
}

/** The rows of a scope's state table as `{key: [value text, set-by text]}`. */
export async function stateRows(page: Page, scope: 'App' | 'User' | 'Session'): Promise<Record<string, string[]>> {
  const group = page.getByRole('region', { name: new RegExp(`^${scope} state`) });
  const rows = group.locator('tbody tr');
  const out: Record<string, string[]> = {};
  for (const row of await rows.all()) {
    const key = (await row.locator('th').textContent()) ?? '';
    const cells = await row.locator('td').allTextContents();
    out[key] = cells;
  }
  return out;
}

export function sessionRows(page: Page): Locator {
  return page.getByRole('list', { name: 'Sessions', exact: true }).locator('a.session-row');
}
