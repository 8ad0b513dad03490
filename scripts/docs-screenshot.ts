/**
 * Regenerates docs/demo.png (and docs/demo-dark.png): the demo at 1280x800 in the system
 * Chromium, with sample data, a conversation with the demo agent (a tool call, a saved note), the
 * Sync panel connected to a local sync server, and the mounted inspector on the tool call.
 *
 *   npx tsx scripts/docs-screenshot.ts
 *
 * It starts the demo (`npm run demo`) and a sync server (`npm run server`) per picture on free ports
 * of their own, and stops them when done.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Locator, type Page } from 'playwright';

const root = new URL('..', import.meta.url).pathname;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(command: string[], env: Record<string, string>): ChildProcess {
  const [bin = '', ...args] = command;
  return spawn(bin, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
}

async function until(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(url).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer`);
}

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });

/** Sends a message and waits for the agent's reply in the chat. */
async function say(page: Page, text: string): Promise<void> {
  const before = await page.locator('li.msg').count();
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await button(page, 'Send').click();
  await page.waitForFunction((n) => document.querySelectorAll('li.msg').length >= n + 2, before);
}

const demoPort = await freePort();
const demo = start(['node_modules/.bin/vite', '--host', '127.0.0.1', '--port', String(demoPort), '--strictPort'], {});
const children = [demo];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  await until(`http://127.0.0.1:${demoPort}/`);
  for (const colorScheme of ['light', 'dark'] as const) {
    // A server of its own for each picture, so the second does not pull the first one's session.
    const serverPort = await freePort();
    const serverUrl = `http://127.0.0.1:${serverPort}`;
    children.push(
      start(['node_modules/.bin/tsx', 'server/main.ts'], {
        PORT: String(serverPort),
        SYNC_DB_FILE: join(mkdtempSync(join(tmpdir(), 'docs-shot-')), 'sync.db'),
      }),
    );
    await until(`${serverUrl}/v1/limits`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
    await page.goto(`http://127.0.0.1:${demoPort}/?db=docs-screenshot-${colorScheme}`);

    await button(page, 'Generate sample data').click();
    const dialog = page.getByRole('dialog', { name: 'Generate sample data' });
    for (const [label, value] of [
      ['Sessions', 24],
      ['Events per session', 6],
      ['Users', 3],
    ] as const) {
      await dialog.getByLabel(label).clear();
      await dialog.getByLabel(label).fill(String(value));
    }
    await button(dialog, 'Generate').click();
    await page
      .getByRole('contentinfo')
      .getByRole('status')
      .filter({ hasText: /Generated 24 sessions/ })
      .waitFor({ timeout: 60_000 });

    await button(page, 'New session').click();
    const create = page.getByRole('dialog', { name: 'New session' });
    await create.getByLabel('App name').fill('demo-app');
    await create.getByLabel('User id').fill('demo-user');
    await create.getByLabel('Session id').fill('trip-to-lisbon');
    await button(create, 'Create').click();
    await create.waitFor({ state: 'detached' });
    await say(page, 'my name is Ada');
    await say(page, 'add 2 and 3');
    await say(page, 'save a note: book the hotel in Lisbon');

    const sync = page.getByRole('form', { name: 'Sync settings' });
    await sync.getByLabel('Server URL').fill(serverUrl);
    await sync.getByLabel('Token').fill('dev-token');
    await button(sync, 'Connect').click();
    await button(page, 'Sync now').click();
    await page
      .getByRole('region', { name: 'Sync' })
      .locator('.sync-last')
      .filter({ hasNotText: 'never' })
      .waitFor({ timeout: 30_000 });

    // The inspector on the tool call: its details and the state after it.
    const inspector = page.getByRole('region', { name: 'Session inspector', exact: true });
    await inspector.locator('button.ev').filter({ hasText: 'call add' }).click();
    // The chat back in view at the top of the app's column (Sync now scrolled it down).
    await page.locator('.app-col').evaluate((el) => el.scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(root, colorScheme === 'light' ? 'docs/demo.png' : 'docs/demo-dark.png') });
    await page.close();
  }
} finally {
  await browser.close();
  for (const child of children) if (child.pid) process.kill(-child.pid);
}
