/**
 * The demo against `npm run server`'s entry (a real server process): the app's
 * Sync panel takes the server URL and token, shows online/offline, pending changes,
 * last sync and last error, and "Sync now" pushes and pulls; the inspector shows what was pulled.
 */
import type { Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../sync/server-process.js';
import { button, chat, createSession, demoTabs, inspector, picker, texts } from './helpers.js';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ SYNC_TOKENS: 'e2e-token=demo-user' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const tabs = demoTabs();

async function connect(page: Page, url: string, token = 'e2e-token'): Promise<void> {
  const form = page.getByRole('form', { name: 'Sync settings' });
  await form.getByLabel('Server URL').fill(url);
  await form.getByLabel('Token').fill(token);
  await button(form, 'Connect').click();
}
const indicator = (page: Page) => page.getByRole('region', { name: 'Sync' }).locator('.sync-indicator');

describe('demo sync', () => {
  it('pushes a session made in the demo and shows it synced', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'demo-app', user: 'demo-user', id: 'from-the-demo' });
    await connect(page, server.url);
    await button(page, 'Sync now').click();
    await expect.poll(() => indicator(page).textContent()).toBe('Online · 0 pending');
    const panel = page.getByRole('region', { name: 'Sync' });
    expect(await panel.locator('.sync-error').textContent()).toBe('none');
    expect(await panel.locator('.sync-last').textContent()).not.toBe('never');
    const feed = await fetch(`${server.url}/v1/apps/demo-app/users/demo-user/changes`, {
      headers: { authorization: 'Bearer e2e-token' },
    }).then((r) => r.json() as Promise<{ changes: { sessionId: string }[] }>);
    expect(feed.changes.map((c) => c.sessionId)).toContain('from-the-demo');
    // The app hands its sync to the inspector, whose Sync shows the same status.
    await inspector(page).locator('summary', { hasText: 'Sync' }).click();
    const status = inspector(page).getByRole('definition').filter({ hasText: /^\d+$/ });
    await expect.poll(() => texts(status)).toEqual(['0']);
    expect(await inspector(page).locator('details.fold').last().textContent()).toMatch(/Online\s*yes/);
  });

  it('syncs the selected app and user unless told otherwise, adding no empty app to the list', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'bank', user: 'demo-user', id: 'at-the-bank' });
    const form = page.getByRole('form', { name: 'Sync settings' });
    expect(await form.getByLabel('App name').inputValue()).toBe('bank');
    expect(await form.getByLabel('User id').inputValue()).toBe('demo-user');
    await connect(page, server.url);
    await button(page, 'Sync now').click();
    await expect.poll(() => indicator(page).textContent()).toBe('Online · 0 pending');
    // Read afresh: syncing an app this browser does not have would have added it, with 0 sessions.
    await page.reload();
    await page.locator('html[data-ready="true"]').waitFor();
    await expect.poll(() => texts(picker(page, 'App').locator('option'))).toEqual(['bank']);
  });

  it('pulls sessions another device wrote', async () => {
    const headers = { authorization: 'Bearer e2e-token' };
    const base = `${server.url}/v1/apps/demo-app/users/demo-user`;
    await fetch(`${base}/sessions`, { method: 'POST', headers, body: JSON.stringify({ sessionId: 'from-elsewhere' }) });
    await fetch(`${base}/sessions/from-elsewhere/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        after: 0,
        events: [{ id: 'hello', timestamp: 1, author: 'user', content: { parts: [{ text: 'hi from a phone' }] } }],
      }),
    });
    const { page } = await tabs.open();
    await connect(page, server.url);
    await button(page, 'Sync now').click();
    // The inspector lists what was pulled.
    await expect.poll(() => picker(page, 'App').inputValue()).toBe('demo-app');
    await expect
      .poll(() => texts(picker(page, 'Session').locator('option')))
      .toEqual(expect.arrayContaining([expect.stringContaining('from-elsewhere')]));
  });

  it("names a session the server refuses: the agent's app: state, which this token may not write", async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'demo-app', user: 'demo-user', id: 'chatty' });
    // The demo agent counts every message in app:message_count.
    await chat(page, 'hello there', 2);
    await connect(page, server.url);
    await button(page, 'Sync now').click();
    const refused = page.getByRole('region', { name: 'Sync' }).locator('.sync-refused li');
    await expect.poll(() => texts(refused)).toEqual([expect.stringMatching(/^chatty: .*app:message_count/)]);
    await expect.poll(() => indicator(page).textContent()).toMatch(/^Online · [1-9]\d* pending$/);
  });

  it('shows offline, the pending count and the error when the server cannot be reached', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'demo-app', user: 'demo-user', id: 'unsent' });
    await connect(page, 'http://127.0.0.1:9');
    await button(page, 'Sync now').click();
    await expect.poll(() => indicator(page).textContent()).toBe('Offline · 1 pending');
    expect(await page.getByRole('region', { name: 'Sync' }).locator('.sync-error').textContent()).toMatch(
      /cannot reach the sync server/,
    );
  });

  it('names a refused token', async () => {
    const { page } = await tabs.open();
    await connect(page, server.url, 'wrong');
    await button(page, 'Sync now').click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Sync' }).locator('.sync-error').textContent())
      .toMatch(/401/);
  });
});
