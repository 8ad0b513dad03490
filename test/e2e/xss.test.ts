/**
 * Stored content is only ever text. Markup in every stored field (app, user
 * and session ids, state keys and values, message text) is shown literally,
 * creates no element and runs nothing, on first render and after a reload.
 */
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chat, createSession, events, launch, openDemo, sessionTitle, stateRows } from './helpers.js';

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

/** Elements markup would have created, anywhere in the document. */
const injected = (page: Page) =>
  page.evaluate(() => ({
    elements: document.querySelectorAll('img, svg, iframe, object, embed, b, script:not([src])').length,
    pwned: (window as { __pwned?: unknown }).__pwned ?? null,
  }));

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
    expect(await events(page).nth(0).locator('.part-text').textContent()).toBe(PAYLOAD);
    expect(await events(page).nth(1).textContent()).toContain(`You said "${PAYLOAD}"`);
    expect(await page.getByRole('list', { name: 'Apps' }).textContent()).toContain(PAYLOAD);
    const session = await stateRows(page, 'Session');
    expect(session[PAYLOAD]?.[0]).toBe('"<b onmouseover=alert(5)>hover</b>"');
    expect((await stateRows(page, 'User')).bio?.[0]).toBe(JSON.stringify(PAYLOAD));
    // Hover everything that could carry a handler.
    await page.getByRole('region', { name: /^Session state/ }).hover();
    await page.waitForTimeout(300);
    expect(await injected(page)).toEqual({ elements: 0, pwned: null });
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
