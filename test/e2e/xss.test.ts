/**
 * Stored content is only ever text. Markup in every stored field (app, user
 * and session ids, state keys and values, message text) is shown literally by
 * the app's chat and by the mounted inspector, creates no element and runs
 * nothing, on first render and after a reload.
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  chat,
  conversation,
  createSession,
  events,
  inspector,
  launch,
  openDemo,
  picker,
  sessionTitle,
  stateRows,
  texts,
} from './helpers.js';

const PAYLOAD = '<img src=x onerror=alert(1)>';

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Elements markup would have created, anywhere in the document or the inspector's shadow root. */
const injected = (page: Page) =>
  page.evaluate(() => {
    const selector = 'img, svg, iframe, object, embed, b, script:not([src])';
    const shadow = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot;
    return {
      elements: document.querySelectorAll(selector).length + (shadow?.querySelectorAll(selector).length ?? 0),
      inspector: shadow !== undefined && shadow !== null,
      pwned: (window as { __pwned?: unknown }).__pwned ?? null,
    };
  });

it('renders markup in stored data as inert text', async () => {
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const tab = await openDemo(context);
  const { page } = tab;
  await createSession(page, {
    app: PAYLOAD,
    user: '<script>window.__pwned=1</script>',
    id: '"><svg onload=alert(3)>',
    state: JSON.stringify({ [PAYLOAD]: '<b onmouseover=alert(5)>hover</b>', 'user:bio': PAYLOAD }),
  });
  await sessionTitle(page).filter({ hasText: '"><svg onload=alert(3)>' }).waitFor();
  await chat(page, PAYLOAD, 2);

  const check = async () => {
    expect(await sessionTitle(page).textContent()).toBe('"><svg onload=alert(3)>');
    expect(await conversation(page).locator('.part-text').first().textContent()).toBe(PAYLOAD);
    expect(await events(page).nth(0).locator('.ev-text').textContent()).toBe(PAYLOAD);
    expect(await events(page).nth(1).textContent()).toContain(`You said "${PAYLOAD}"`);
    // The pickers fill from live listings and may render again while read: polled.
    await expect.poll(() => texts(picker(page, 'App').locator('option'))).toContain(PAYLOAD);
    await expect
      .poll(() => texts(picker(page, 'Session').locator('option')))
      .toEqual([expect.stringContaining('"><svg onload=alert(3)>')]);
    const session = await stateRows(page, 'Session');
    expect(session[PAYLOAD]?.[0]).toBe('"<b onmouseover=alert(5)>hover</b>"');
    expect((await stateRows(page, 'User')).bio?.[0]).toBe(JSON.stringify(PAYLOAD));
    // Hover everything that could carry a handler.
    await inspector(page).getByRole('table', { name: 'Session state' }).hover();
    await events(page).nth(0).click();
    await page.waitForTimeout(300);
    expect(await injected(page)).toEqual({ elements: 0, inspector: true, pwned: null });
    expect(tab.dialogs).toEqual([]);
  };
  await check();
  // Rendered again from storage alone, through a URL that carries the ids.
  await page.reload();
  await page.locator('html[data-ready="true"]').waitFor();
  await sessionTitle(page).waitFor();
  await check();
  expect(tab.errors).toEqual([]);
});
