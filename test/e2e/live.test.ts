/**
 * Live updates across tabs: two pages of one browser profile (one IndexedDB),
 * one over the SharedWorker and one over its own dedicated worker. What one
 * writes appears in the other without a reload.
 */
import type { Page } from 'playwright';
import { expect, it } from 'vitest';
import {
  button,
  chat,
  createSession,
  demoTabs,
  events,
  sessionRows,
  sessionTitle,
  stateRows,
  texts,
} from './helpers.js';

const tabs = demoTabs();

/** Marks the page so a later check can tell it was never reloaded. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { __notReloaded: true }));
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as { __notReloaded?: boolean }).__notReloaded === true);

it('a write in one tab appears live in the other, both ways', async () => {
  const a = await tabs.open();
  const b = await tabs.open('?mode=dedicated');
  await mark(b.page);
  expect(await b.page.locator('.db-info').textContent()).toContain('dedicated Worker');

  // A new app, user and session show up in B's lists.
  await createSession(a.page, { app: 'live-app', user: 'ada', id: 'shared-chat' });
  await expect.poll(() => b.page.getByRole('list', { name: 'Apps' }).textContent()).toContain('live-app');
  await b.page.getByRole('link', { name: /^live-app/ }).click();
  await expect.poll(() => texts(sessionRows(b.page))).toEqual([expect.stringContaining('shared-chat')]);

  // B opens the session; A chats; B's timeline and state follow.
  await sessionRows(b.page).first().click();
  await sessionTitle(b.page).filter({ hasText: 'shared-chat' }).waitFor();
  await chat(a.page, 'my name is Ada', 2);
  await expect.poll(() => events(b.page).count()).toBe(2);
  expect(await events(b.page).nth(1).textContent()).toContain('Nice to meet you, Ada');
  await expect.poll(async () => (await stateRows(b.page, 'User')).name?.[0]).toBe('"Ada"');

  // The other way: B chats (its copy is fresh from the live reload, so no stale error), A follows.
  await chat(b.page, 'add 20 and 22', 4);
  await expect.poll(() => events(a.page).count()).toBe(6);
  expect(await events(a.page).nth(5).textContent()).toContain('20 + 22 = 42');
  await expect.poll(async () => (await stateRows(a.page, 'Session')).step?.[0]).toBe('2');

  // A second session created in A appears in B's list, with the count in the sidebar.
  await createSession(a.page, { app: 'live-app', user: 'ada', id: 'another' });
  await b.page.getByRole('list', { name: 'Users' }).getByRole('link', { name: /^ada/ }).click();
  await expect.poll(() => sessionRows(b.page).count()).toBe(2);
  await expect
    .poll(() =>
      b.page
        .getByRole('list', { name: 'Apps' })
        .getByRole('link', { name: /^live-app/ })
        .textContent(),
    )
    .toContain('2');

  // Deleting in B tells A's open view that the session is gone.
  await sessionRows(b.page).filter({ hasText: 'another' }).click();
  await sessionTitle(b.page).filter({ hasText: 'another' }).waitFor();
  await button(b.page, 'Delete session').click();
  await button(b.page.getByRole('dialog', { name: 'Delete session?' }), 'Delete').click();
  await expect
    .poll(() => a.page.getByRole('region', { name: 'Session', exact: true }).textContent())
    .toContain('Session deleted');

  expect(await stillSamePage(b.page)).toBe(true);
});
