/**
 * A click that a live change lands in the middle of. A click is a press and a release on the same
 * element; the inspector re-renders its lists whenever another tab (or a running sample-data
 * generator) commits, so a list rebuilt between the two would swallow the click: the user picks a
 * user or a session and nothing happens. Here the change is forced between the press and the
 * release: the press, then a write from a second tab, then (once the pressed list shows it) the
 * release. The same for the search results, which re-run on every change.
 */
import type { Locator, Page } from 'playwright';
import { expect, it } from 'vitest';
import { chat, createSession, demoTabs, sessionRows } from './helpers.js';

const tabs = demoTabs();

function usersList(page: Page): Locator {
  return page.getByRole('list', { name: 'Users' });
}

/** Presses the mouse on `target`, runs `meanwhile`, then releases it where it was pressed. */
async function clickAcross(page: Page, target: Locator, meanwhile: () => Promise<void>): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('clickAcross: the target is not visible');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await meanwhile();
  await page.mouse.up();
}

it('picking a user while another tab writes to that user still selects them', async () => {
  const a = await tabs.open();
  await createSession(a.page, { app: 'live-app', user: 'ada', id: 'first' });
  await usersList(a.page)
    .getByRole('link', { name: /^All users/ })
    .click();
  // Every user's sessions listed, the created one still open.
  await expect.poll(() => a.page.evaluate(() => location.hash)).toBe('#app=live-app&session=first&of=ada');
  const ada = usersList(a.page).getByRole('link', { name: /^ada/ });
  await expect.poll(() => ada.textContent({ timeout: 1_000 })).toContain('1');

  const b = await tabs.open();
  await clickAcross(a.page, ada, async () => {
    await createSession(b.page, { app: 'live-app', user: 'ada', id: 'second' });
    // The pressed tab has re-read its users: the change landed between press and release.
    await expect.poll(() => ada.textContent({ timeout: 1_000 }), { timeout: 10_000 }).toContain('2');
  });

  await expect
    .poll(() => a.page.evaluate(() => location.hash), { timeout: 10_000 })
    .toBe('#app=live-app&user=ada&session=first');
  await expect.poll(() => ada.getAttribute('aria-current', { timeout: 1_000 })).toBe('page');
});

it('opening a session while another tab writes to it still opens it', async () => {
  // B writes; A lists ada's sessions with none open, the newest ("second") at the top.
  const b = await tabs.open();
  await createSession(b.page, { app: 'live-app', user: 'ada', id: 'first' });
  await createSession(b.page, { app: 'live-app', user: 'ada', id: 'second' });
  const a = await tabs.open('#app=live-app&user=ada');
  const second = sessionRows(a.page).first();
  await expect.poll(() => second.textContent({ timeout: 1_000 })).toContain('second');
  await expect.poll(() => second.getAttribute('class', { timeout: 1_000 })).toBe('session-row');

  // B's write keeps "second" where it is pressed, at the top.
  await clickAcross(a.page, second, async () => {
    await chat(b.page, 'my name is Ada', 2);
    // A marks a session another tab changed: its list has re-read it.
    await expect.poll(() => second.getAttribute('class', { timeout: 1_000 }), { timeout: 10_000 }).toContain('flash');
  });

  await expect
    .poll(() => a.page.evaluate(() => location.hash), { timeout: 10_000 })
    .toBe('#app=live-app&user=ada&session=second');
});

it('choosing a search hit while another tab writes to that user still opens it', async () => {
  // B writes; A lists ada's sessions with none open and searches them.
  const b = await tabs.open();
  await createSession(b.page, { app: 'travel', user: 'ada', id: 'tokyo' });
  await chat(b.page, '東京のホテル', 2);
  const a = await tabs.open('#app=travel&user=ada');
  await a.page.getByRole('searchbox', { name: 'Search conversations' }).fill('ホテル');
  const hits = a.page.getByRole('list', { name: 'Search results' }).getByRole('button');
  await expect.poll(() => hits.count(), { timeout: 10_000 }).toBe(2);

  // B's longer message ranks below the pressed hit (the shortest text ranks first), which stays put.
  await clickAcross(a.page, hits.first(), async () => {
    await createSession(b.page, { app: 'travel', user: 'ada', id: 'rome' });
    await chat(b.page, 'ローマでは駅から歩いて行ける静かなホテルに泊まりたいと思っています', 2);
    await expect.poll(() => hits.count(), { timeout: 10_000 }).toBe(4);
  });

  await expect
    .poll(() => a.page.evaluate(() => location.hash), { timeout: 10_000 })
    .toBe('#app=travel&user=ada&session=tokyo');
});
