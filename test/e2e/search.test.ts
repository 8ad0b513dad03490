/**
 * The demo's search box: the selected user's conversations, in English and
 * Japanese, matches marked in the snippet (as `<mark>` elements, never HTML),
 * and a hit opens its session at the event; the open search follows the selected user.
 */
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { chat, createSession, demoTabs, generateSampleData, screenshot, sessionTitle, texts } from './helpers.js';

const tabs = demoTabs();

/** A bounded read: with no hit yet, a poll asks again rather than waiting on the element. */
const READ = { timeout: 1_000 };

/** What the search panel shows, read by CSS in one call (its list may be hidden from role queries). */
function searchPanel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('ul.search-results');
    const box = document.querySelector<HTMLInputElement>('input.search-box');
    return JSON.stringify({
      hash: location.hash,
      query: box?.value,
      hidden: list?.hidden,
      text: list?.textContent?.slice(0, 200),
    });
  });
}

/** Awaits a poll on the panel; when it fails, the failure also says what the panel showed. */
async function onPanel(page: Page, poll: Promise<void>): Promise<void> {
  await poll.catch(async (error: Error) => {
    error.message += `\nthe search panel then: ${await searchPanel(page)}`;
    throw error;
  });
}

/** Creates each session in app `travel` and says `text` in it (the demo agent answers). */
async function conversations(page: Page, said: { user: string; id: string; text: string }[]): Promise<void> {
  for (const { user, id, text } of said) {
    await createSession(page, { app: 'travel', user, id });
    await chat(page, text, 2);
  }
}

describe('searching conversations in the demo', () => {
  it('finds a message in any session of the user, marks the match, and opens the session at it', async () => {
    const { page } = await tabs.open();
    await conversations(page, [
      { user: 'ada', id: 'tokyo', text: '来週、東京のホテルを予約したいです' },
      { user: 'ada', id: 'paris', text: 'Book the café near the <b>Louvre</b>' },
    ]);

    const box = page.getByRole('searchbox', { name: 'Search conversations' });
    await box.fill('ホテル');
    const results = page.getByRole('list', { name: 'Search results' });
    const hit = results.getByRole('button').first();
    await onPanel(
      page,
      expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('東京のホテルを予約したいです'),
    );
    expect(await texts(hit.locator('mark'))).toEqual(['ホテル']);
    expect(await hit.textContent()).toContain('tokyo');
    await screenshot(page, 'search-japanese');

    // Accents fold, and what the store holds stays text: the tags are shown, not made.
    await box.fill('cafe louvre');
    await onPanel(
      page,
      expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('Book the café near the <b>Louvre</b>'),
    );
    expect(await texts(hit.locator('mark'))).toEqual(['café', 'Louvre']);
    expect(await hit.locator('b').count()).toBe(0);

    await box.fill('ホテル');
    await onPanel(page, expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('ホテル'));
    await hit.click();
    await expect.poll(() => sessionTitle(page).textContent(), { timeout: 10_000 }).toContain('tokyo');
    const shown = page.locator('li.event.highlight');
    await expect.poll(() => shown.textContent(), { timeout: 10_000 }).toContain('東京のホテル');
  });

  it("an open search follows the selected user, and a closed one keeps no other user's hits", async () => {
    const { page } = await tabs.open();
    await conversations(page, [
      { user: 'ada', id: 'tokyo', text: '来週、東京のホテルを予約したいです' },
      { user: 'bob', id: 'rome', text: 'A table for two in Rome' },
    ]);
    const box = page.getByRole('searchbox', { name: 'Search conversations' });
    const results = page.getByRole('list', { name: 'Search results' });
    await box.fill('ホテル');
    await onPanel(
      page,
      expect.poll(() => results.textContent(READ), { timeout: 10_000 }).toContain("Nothing in bob's conversations"),
    );

    // Picked from the keyboard, so the results stay open (a click elsewhere closes them): they re-run.
    const users = page.getByRole('list', { name: 'Users' });
    await users.getByRole('link', { name: /^ada/ }).focus();
    await page.keyboard.press('Enter');
    await onPanel(page, expect.poll(() => results.textContent(READ), { timeout: 10_000 }).toContain('東京のホテル'));

    // Closed by a click elsewhere (Escape would also empty the box), then another user picked:
    // ada's hits are gone before the box is opened again.
    await page.getByRole('heading', { name: /^Users/ }).click();
    await expect.poll(() => results.count()).toBe(0);
    await users.getByRole('link', { name: /^bob/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 10_000 }).toContain('user=bob');
    await onPanel(page, expect.poll(() => page.locator('ul.search-results > li').count(), { timeout: 10_000 }).toBe(0));
    await box.focus();
    await onPanel(
      page,
      expect.poll(() => results.textContent(READ), { timeout: 10_000 }).toContain("Nothing in bob's conversations"),
    );
  });

  it('finds the Chinese and Japanese conversations the sample data generator writes', async () => {
    const { page } = await tabs.open();
    await generateSampleData(page, { sessions: 40, eventsPerSession: 4, users: 1 });
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 30_000 })
      .toMatch(/Generated 40 sessions/);
    await page
      .getByRole('list', { name: 'Users' })
      .getByRole('link', { name: /user-001/ })
      .click();
    const box = page.getByRole('searchbox', { name: 'Search conversations' });
    const results = page.getByRole('list', { name: 'Search results' });
    for (const query of ['酒店', 'ホテル']) {
      await box.fill(query);
      await onPanel(
        page,
        expect.poll(() => results.locator('mark').first().textContent(READ), { timeout: 30_000 }).toBe(query),
      );
    }
    // Generating in a loaded CI machine's Firefox alone can take most of a minute.
  }, 120_000);
});
