/**
 * Searching conversations in the demo, through the inspector it mounts: the
 * selected user's conversations (or, with "All users", every user's), in
 * English and Japanese, matches marked in the snippet (as `<mark>` elements,
 * never HTML), and a hit opens its session at the event.
 */
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import {
  appStatus,
  button,
  chat,
  createSession,
  demoTabs,
  generateSampleData,
  inspector,
  picker,
  screenshot,
  sessionOption,
  texts,
} from './helpers.js';

const tabs = demoTabs();

/** A bounded read: with no hit yet, a poll asks again rather than waiting on the element. */
const READ = { timeout: 1_000 };

/** Creates each session in app `travel` and says `text` in it (the demo agent answers). */
async function conversations(page: Page, said: { user: string; id: string; text: string }[]): Promise<void> {
  for (const { user, id, text } of said) {
    await createSession(page, { app: 'travel', user, id });
    await chat(page, text, 2);
  }
}

/** Searches the inspector's selected user (or every user, with "All users" picked) for `query`. */
async function search(page: Page, query: string): Promise<void> {
  await inspector(page)
    .getByRole('searchbox', { name: /^Search (this|all) users?$/ })
    .fill(query);
  await button(inspector(page), 'Search').click();
}

const results = (page: Page) => inspector(page).getByRole('list', { name: 'Search results' });

describe('searching conversations in the demo', () => {
  it('finds a message in any session of the user, marks the match, and opens the session at it', async () => {
    const { page } = await tabs.open();
    await conversations(page, [
      { user: 'ada', id: 'tokyo', text: '来週、東京のホテルを予約したいです' },
      { user: 'ada', id: 'paris', text: 'Book the café near the <b>Louvre</b>' },
    ]);

    await search(page, 'ホテル');
    const hit = results(page).getByRole('button').first();
    await expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('東京のホテルを予約したいです');
    expect(await texts(hit.locator('mark'))).toEqual(['ホテル']);
    expect(await hit.textContent()).toContain('tokyo');
    await screenshot(page, 'search-japanese');

    // Accents fold, and what the store holds stays text: the tags are shown, not made.
    await search(page, 'cafe louvre');
    await expect
      .poll(() => hit.textContent(READ), { timeout: 10_000 })
      .toContain('Book the café near the <b>Louvre</b>');
    expect(await texts(hit.locator('mark'))).toEqual(['café', 'Louvre']);
    expect(await hit.locator('b').count()).toBe(0);

    await search(page, 'ホテル');
    await expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('ホテル');
    await hit.click();
    await expect
      .poll(() => picker(page, 'Session').inputValue(), { timeout: 10_000 })
      .toBe(sessionOption('ada', 'tokyo'));
    const shown = inspector(page).locator('button.ev[aria-pressed="true"]');
    await expect.poll(() => shown.textContent(READ), { timeout: 10_000 }).toContain('東京のホテル');
  });

  it("searches the selected user's conversations, or every user's with All users", async () => {
    const { page } = await tabs.open();
    await conversations(page, [
      { user: 'ada', id: 'tokyo', text: '来週、東京のホテルを予約したいです' },
      { user: 'bob', id: 'rome', text: 'A table for two in Rome' },
    ]);
    // The inspector shows bob's session, bob selected: ada's hotel is not his.
    expect(await picker(page, 'User').inputValue()).toBe('bob');
    await search(page, 'ホテル');
    await expect
      .poll(() => inspector(page).getByRole('region', { name: 'Details' }).textContent(), { timeout: 10_000 })
      .toContain("Nothing in bob's conversations matches.");

    await picker(page, 'User').selectOption({ label: 'All users' });
    await search(page, 'ホテル');
    const hit = results(page).getByRole('button').first();
    await expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('東京のホテル');
    expect(await hit.locator('.hit-where').textContent()).toBe('ada · tokyo');
    await search(page, 'Rome');
    await expect.poll(() => hit.textContent(READ), { timeout: 10_000 }).toContain('bob · rome');
  });

  it('finds the Chinese and Japanese conversations the sample data generator writes', async () => {
    const { page } = await tabs.open();
    await generateSampleData(page, { sessions: 40, eventsPerSession: 4, users: 1 });
    await expect.poll(() => appStatus(page).textContent(), { timeout: 30_000 }).toMatch(/Generated 40 sessions/);
    await expect.poll(() => picker(page, 'App').inputValue()).toBe('sample-app');
    await expect.poll(() => texts(picker(page, 'User').locator('option'))).toContain('user-001 (40)');
    await picker(page, 'User').selectOption('user-001');
    for (const query of ['酒店', 'ホテル']) {
      await search(page, query);
      await expect.poll(() => results(page).locator('mark').first().textContent(READ), { timeout: 30_000 }).toBe(query);
    }
    // Generating in a loaded CI machine's Firefox alone can take most of a minute.
  }, 120_000);
});
