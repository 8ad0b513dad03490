/**
 * examples/live-queries, built from the installed tarball: a conversation list, the
 * open conversation and a counter in the user's state, each a live query, in two tabs
 * of one browser. What one tab writes, the other shows without a reload; what the
 * store holds is shown as text, never as HTML.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildExample, itemTexts, launchChromium, typecheckExample } from './examples.js';
import { serveStatic } from './setups.js';

let outDir: string;
let browser: Browser;

beforeAll(async () => {
  [outDir, browser] = await Promise.all([buildExample('live-queries'), launchChromium()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}
const sentCount = (page: Page) => page.getByRole('status', { name: 'Messages sent' }).textContent();

it('type-checks under its own strict tsconfig against the installed package', () => {
  const run = typecheckExample('live-queries');
  expect(run.output).toBe('');
  expect(run.status).toBe(0);
});

it('keeps two tabs in step: the list, the open conversation and the user state', async () => {
  const server = await serveStatic(outDir);
  const context = await browser.newContext();
  try {
    const [a, b] = [await context.newPage(), await context.newPage()];
    for (const page of [a, b]) {
      await page.goto(server.url);
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      expect(await itemTexts(page, 'Conversations')).toEqual([]);
    }

    await a.getByRole('button', { name: 'New conversation' }).click();
    await expect.poll(() => itemTexts(b, 'Conversations')).toEqual(['New conversation']);
    await send(a, 'hello from A');
    // The other tab's list is re-read on the change: the title the message set.
    await expect.poll(() => itemTexts(b, 'Conversations')).toEqual(['hello from A']);
    await b.getByRole('link', { name: 'hello from A' }).click();
    await expect.poll(() => itemTexts(b, 'Messages')).toEqual(['hello from A']);

    await send(b, 'and from B');
    await expect.poll(() => itemTexts(a, 'Messages')).toEqual(['hello from A', 'and from B']);
    for (const page of [a, b]) await expect.poll(() => sentCount(page)).toBe('2');

    // Markup typed by a user, shown as the text it is in the other tab.
    const markup = '<img src=x onerror="window.injected=1"><b>bold</b>';
    await send(a, markup);
    await expect.poll(() => itemTexts(b, 'Messages')).toEqual(['hello from A', 'and from B', markup]);
    expect(await b.locator('main img, main b').count()).toBe(0);
    expect(await b.evaluate(() => 'injected' in window)).toBe(false);

    // A second conversation: the list, newest first, in both tabs; the counter spans conversations.
    await b.getByRole('button', { name: 'New conversation' }).click();
    await send(b, 'second one');
    for (const page of [a, b]) {
      await expect.poll(() => itemTexts(page, 'Conversations')).toEqual(['second one', 'hello from A']);
      await expect.poll(() => sentCount(page)).toBe('4');
    }
    expect(await itemTexts(a, 'Messages')).toEqual(['hello from A', 'and from B', markup]);
  } finally {
    await context.close();
    await server.close();
  }
});
