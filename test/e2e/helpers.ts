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

/*
 * What Playwright 1.65's BiDi client cannot do in Firefox ESR 153 yet; the tests that need it are
 * skipped in Firefox, naming which of these they need (the same tests run in Chromium):
 * - `downloads`: no `download` event reaches Playwright (`waitForEvent('download')` times out).
 * - `repeatFileChooser`: a second file chooser on the same page never reports `filechooser`.
 * - `mediaFeatures`: ESR lacks `emulation.setMediaFeaturesOverride`; the launcher answers it without
 *   effect (scripts/engines/firefox-bidi.mjs), so `colorScheme` and `reducedMotion` change nothing.
 */
const inFirefox = testedEngine.name === 'firefox';
export const firefoxLacks = { downloads: inFirefox, repeatFileChooser: inFirefox, mediaFeatures: inFirefox };

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

/** The window size the e2e tests run at unless a test names another. */
export const DEFAULT_VIEWPORT = { width: 1440, height: 900 };

export interface TabOptions {
  /** The window size of the test's profile, set by its first tab (later tabs share it). */
  viewport?: { width: number; height: number };
}

/**
 * One browser for the test file and a fresh browser profile for each test. After each
 * test, every tab it opened must have had no page errors and no alert/confirm dialog.
 * `open(query)` opens another tab of the demo in the test's profile.
 */
export function demoTabs(): { open(query?: string, options?: TabOptions): Promise<OpenedPage> } {
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
    // The profile goes whatever the checks find: a failed test must not leave its data to the next.
    const opened = tabs;
    tabs = [];
    await context?.close();
    context = undefined;
    for (const tab of opened) {
      expect(tab.errors).toEqual([]);
      expect(tab.dialogs).toEqual([]);
    }
  });
  return {
    async open(query = '', options = {}) {
      if (!browser) throw new Error('demoTabs: the browser is not launched yet');
      context ??= await browser.newContext({ viewport: options.viewport ?? DEFAULT_VIEWPORT });
      const tab = await openDemo(context, query);
      tabs.push(tab);
      return tab;
    },
  };
}

/*
 * Reading many elements at once: Playwright's `allTextContents()` and `evaluateAll()` run the
 * selector in the page's own JavaScript world, and in Firefox ESR 153 (Playwright's BiDi client)
 * that main-world query with a role selector, once the page has answered other reads, crashes the
 * content process (SIGSEGV; reproduced with `getByRole(...).locator('dt').allTextContents()` after
 * four role and CSS reads; a CSS-only query, `page.evaluate` and `locator.evaluate` do not). These
 * read each match on its own, through Playwright's utility world, as single-element reads do.
 */

/**
 * A match the list lost while it was read (it re-rendered between `all()` and the read) fails the
 * read at once instead of waiting for the element: callers poll, and the next poll reads afresh.
 */
const READ_ONE = { timeout: 1_000 };

/** The text of every element `locator` matches, in order. */
export async function texts(locator: Locator): Promise<string[]> {
  const out: string[] = [];
  for (const match of await locator.all()) out.push((await match.textContent(READ_ONE)) ?? '');
  return out;
}

/** The `name` attribute of every element `locator` matches, in order (null where absent). */
export async function attributes(locator: Locator, name: string): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const match of await locator.all()) out.push(await match.getAttribute(name, READ_ONE));
  return out;
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

/**
 * Fills the Generate sample data dialog and starts it. Each number is cleared before it is typed:
 * in Firefox, Playwright's `fill` on a number input appends to the value there ("100" becomes
 * "100120"), and the out-of-range value then keeps the form from submitting.
 */
export async function generateSampleData(
  page: Page,
  counts: { sessions: number; eventsPerSession: number; users: number },
): Promise<void> {
  await button(page, 'Generate sample data').click();
  const dialog = page.getByRole('dialog', { name: 'Generate sample data' });
  for (const [label, value] of [
    ['Sessions', counts.sessions],
    ['Events per session', counts.eventsPerSession],
    ['Users', counts.users],
  ] as const) {
    const field = dialog.getByLabel(label);
    await field.clear();
    await field.fill(String(value));
  }
  await button(dialog, 'Generate').click();
}

/** The app's status bar message ("Created session …"); the inspector has status lines of its own. */
export function appStatus(page: Page): Locator {
  return page.getByRole('contentinfo').getByRole('status');
}

/** The open conversation's id, in the app's chat. */
export function sessionTitle(page: Page): Locator {
  return page.getByRole('region', { name: 'Chat', exact: true }).getByRole('heading', { level: 2 });
}

/** The app's chat transcript: what was said, as the app's user sees it. */
export function conversation(page: Page): Locator {
  return page.getByRole('list', { name: 'Conversation', exact: true });
}

/** The inspector the demo mounts (`idb-adk-sessions/inspector`), in its shadow root. */
export function inspector(page: Page): Locator {
  return page.getByRole('region', { name: 'Session inspector', exact: true });
}

/** The inspector's event list. It is virtualised: only the rows in view (and a few around) are in the DOM. */
export function timeline(page: Page): Locator {
  return inspector(page).getByRole('list', { name: 'Events', exact: true });
}

/** The inspector's event rows in the DOM (all of a short session's; see `eventCount` for a long one). */
export function events(page: Page): Locator {
  return timeline(page).locator('button.ev');
}

/** How many events the inspector's session has, from its count line ("n of m"). */
export async function eventCount(page: Page): Promise<number> {
  const line = await inspector(page).getByRole('region', { name: 'Events' }).getByRole('status').textContent(READ_ONE);
  return Number(/of (\d+)/.exec(line ?? '')?.[1] ?? Number.NaN);
}

/** Sends a message to the demo agent and waits until the inspector shows the turn's events. */
export async function chat(page: Page, text: string, expectedEvents: number): Promise<void> {
  const before = await eventCount(page);
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await button(page, 'Send').click();
  await expect.poll(() => eventCount(page), { timeout: 10_000 }).toBe(before + expectedEvents);
}

/**
 * The rows of a scope's state table in the inspector (now, or after the selected event) as
 * `{key: [value text, where it was set]}`.
 */
export async function stateRows(page: Page, scope: 'App' | 'User' | 'Session'): Promise<Record<string, string[]>> {
  const table = inspector(page).getByRole('table', { name: `${scope} state`, exact: true });
  const out: Record<string, string[]> = {};
  for (const row of await table.locator('tbody tr:has(th)').all()) {
    const key = (await row.locator('th').textContent(READ_ONE)) ?? '';
    out[key] = await texts(row.locator('td'));
  }
  return out;
}

/** The inspector's app, user or session picker. */
export function picker(page: Page, name: 'App' | 'User' | 'Session'): Locator {
  return inspector(page).getByRole('combobox', { name, exact: true });
}

/** The value of the inspector's session picker for a session (its options are labelled with times). */
export const sessionOption = (userId: string, sessionId: string): string => JSON.stringify([userId, sessionId]);

/** Opens the app's chat on a session, the way a link into the app does (no reload: only the hash changes). */
export async function openConversation(page: Page, at: { app: string; user: string; id: string }): Promise<void> {
  const hash = new URLSearchParams({ app: at.app, user: at.user, session: at.id }).toString();
  await page.evaluate((hash) => {
    location.hash = hash;
  }, hash);
  await sessionTitle(page).filter({ hasText: at.id }).waitFor();
  await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption(at.user, at.id));
}
