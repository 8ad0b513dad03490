/**
 * The demo's ADK agent: Google ADK's own Runner and LlmAgent, bundled into the built
 * page with `idb-adk-sessions/vite`, on the store. A transfer waits for the user:
 * Approve runs the tool, Reject does not, and the mounted inspector shows the events ADK wrote.
 */
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { button, createSession, demoTabs, eventCount, screenshot, stateRows, timeline } from './helpers.js';

const tabs = demoTabs();

async function adkSession(id: string): Promise<Page> {
  const { page } = await tabs.open();
  await createSession(page, { app: 'bank', user: 'ada', id });
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('adk');
  return page;
}

async function send(page: Page, text: string): Promise<void> {
  const before = await eventCount(page);
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await button(page, 'Send').click();
  await expect.poll(() => eventCount(page), { timeout: 30_000 }).toBeGreaterThan(before);
}

const confirmation = (page: Page) => page.getByRole('group', { name: 'Confirmation' });

describe('the ADK agent in the demo', () => {
  it('asks before a transfer; Approve runs the tool and writes app and user state', async () => {
    const page = await adkSession('approve');
    await send(page, 'send 5 to Bob');
    await expect.poll(() => confirmation(page).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await confirmation(page).textContent()).toContain('transfer_money(to: "Bob", amount: 5)');
    // ADK's own confirmation request is stored and shown as written.
    expect(await timeline(page).textContent()).toContain('adk_request_confirmation');
    await screenshot(page, 'adk-confirmation');
    await button(confirmation(page), 'Approve').click();
    await expect.poll(() => timeline(page).textContent(), { timeout: 30_000 }).toContain('Sent 5 to Bob.');
    await expect.poll(() => confirmation(page).isVisible()).toBe(false);
    expect((await stateRows(page, 'App')).transfers_total?.[0]).toBe('5');
    expect((await stateRows(page, 'User')).last_transfer?.[0]).toContain('Bob');
  });

  it('Reject leaves the tool unrun and the state untouched; the question survives a reload until answered', async () => {
    const page = await adkSession('reject');
    await send(page, 'send 7 to Eve');
    await expect.poll(() => confirmation(page).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.reload();
    await page.locator('html[data-ready="true"]').waitFor();
    await expect.poll(() => confirmation(page).isVisible(), { timeout: 30_000 }).toBe(true);
    await button(confirmation(page), 'Reject').click();
    await expect
      .poll(() => timeline(page).textContent(), { timeout: 30_000 })
      .toContain('Not done: This tool call is rejected.');
    await expect.poll(() => confirmation(page).isVisible()).toBe(false);
    expect(await stateRows(page, 'App')).not.toHaveProperty('transfers_total');
    expect(await stateRows(page, 'User')).not.toHaveProperty('last_transfer');
  });
});
