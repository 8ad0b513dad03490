/**
 * Live updates across tabs: two pages of one browser profile (one IndexedDB),
 * one over the SharedWorker and one over its own dedicated worker. What one
 * writes appears in the other (its chat, its mounted inspector) without a reload.
 */
import type { Page } from 'playwright';
import { expect, it } from 'vitest';
import {
  button,
  chat,
  conversation,
  createSession,
  demoTabs,
  eventCount,
  events,
  inspector,
  openConversation,
  picker,
  sessionOption,
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

  // A new app, user and session show up in B's inspector, which shows the first app's newest session.
  await createSession(a.page, { app: 'live-app', user: 'ada', id: 'shared-chat' });
  await expect.poll(() => texts(picker(b.page, 'App').locator('option'))).toContain('live-app');
  await expect.poll(() => picker(b.page, 'Session').inputValue()).toBe(sessionOption('ada', 'shared-chat'));

  // A chats; B's inspector follows: its events and its state.
  await chat(a.page, 'my name is Ada', 2);
  await expect.poll(() => eventCount(b.page)).toBe(2);
  expect(await events(b.page).nth(1).textContent()).toContain('Nice to meet you, Ada');
  await expect.poll(async () => (await stateRows(b.page, 'User')).name?.[0]).toBe('"Ada"');

  // The other way: B opens the conversation and chats (its copy is fresh, so no stale error), A follows.
  await openConversation(b.page, { app: 'live-app', user: 'ada', id: 'shared-chat' });
  await chat(b.page, 'add 20 and 22', 4);
  await expect.poll(() => eventCount(a.page)).toBe(6);
  expect(await events(a.page).nth(5).textContent()).toContain('20 + 22 = 42');
  await expect.poll(() => conversation(a.page).textContent()).toContain('20 + 22 = 42');
  await expect.poll(async () => (await stateRows(a.page, 'Session')).step?.[0]).toBe('2');

  // A second session created in A appears in B's session list, with the count in its user list.
  await createSession(a.page, { app: 'live-app', user: 'ada', id: 'another' });
  await expect.poll(() => picker(b.page, 'Session').locator('option').count()).toBe(2);
  await expect.poll(() => texts(picker(b.page, 'User').locator('option'))).toContain('ada (2)');

  // Deleting in B's inspector tells A's open chat that the session is gone.
  await picker(b.page, 'Session').selectOption(sessionOption('ada', 'another'));
  await button(inspector(b.page), 'Delete session').click();
  await button(inspector(b.page), 'Confirm delete').click();
  await expect
    .poll(() => a.page.getByRole('region', { name: 'Chat', exact: true }).textContent())
    .toContain('Session deleted');
  await expect.poll(() => picker(b.page, 'Session').locator('option').count()).toBe(1);

  expect(await stillSamePage(b.page)).toBe(true);
});
