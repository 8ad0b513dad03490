/**
 * examples/sync-devices, built from the installed tarball, as two devices (two
 * browser contexts: two IndexedDBs) and the sync server as `npm run server` runs it
 * (server/main.ts in development mode, libsql in a temp dir). What one device writes
 * reaches the other; with the server stopped both write, and once it is back both
 * show the same conversation.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildExample, itemTexts, launchChromium, typecheckExample } from './examples.js';
import { serveStatic } from './setups.js';

let outDir: string;
let browser: Browser;

beforeAll(async () => {
  [outDir, browser] = await Promise.all([buildExample('sync-devices'), launchChromium()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** `npm run server`'s entry with no settings but where it keeps its database: the development token. */
function syncServer(dbFile: string, port = 0): Promise<{ url: string; stop(): Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), SYNC_DB_FILE: dbFile };
  delete env.SYNC_TOKENS;
  // node itself, not the tsx wrapper: a killed wrapper would leave its child holding the port.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1];
      if (url)
        resolve({
          url,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`the sync server exited (${code}) before listening:\n${log}`)));
  });
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}
const status = (page: Page) => page.getByRole('status', { name: 'Sync status' }).textContent();

it('type-checks under its own strict tsconfig against the installed package', () => {
  const run = typecheckExample('sync-devices');
  expect(run.output).toBe('');
  expect(run.status).toBe(0);
});

it('syncs two devices through the server, and they converge after writing while it was down', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sync-devices-'));
  const dbFile = path.join(dir, 'sync.db');
  let server = await syncServer(dbFile);
  const port = Number(new URL(server.url).port);
  const served = await serveStatic(outDir);
  const devices = [await browser.newContext(), await browser.newContext()] as const;
  try {
    const [a, b] = [await devices[0].newPage(), await devices[1].newPage()];
    for (const [page, name] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      await page.goto(`${served.url}?server=${encodeURIComponent(server.url)}&device=${name}`);
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('Online · 0 pending');
    }

    await a.getByRole('button', { name: 'New conversation' }).click();
    await send(a, 'hello from A');
    // B hears of it on the server's change stream: no reload, no "Sync now".
    await expect.poll(() => itemTexts(b, 'Conversations'), { timeout: 15_000 }).toEqual(['hello from A']);
    await b.getByRole('link', { name: 'hello from A' }).click();
    await expect.poll(() => itemTexts(b, 'Messages')).toEqual(['hello from A']);

    await server.stop();
    await send(b, 'B, while the server was down');
    await send(a, 'A, while the server was down');
    for (const page of [a, b]) {
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('Offline · 1 pending');
    }
    expect(await itemTexts(a, 'Messages')).toEqual(['hello from A', 'A, while the server was down']);
    expect(await itemTexts(b, 'Messages')).toEqual(['hello from A', 'B, while the server was down']);

    server = await syncServer(dbFile, port);
    for (const page of [a, b]) {
      await expect.poll(() => status(page), { timeout: 20_000 }).toBe('Online · 0 pending');
    }
    const all = ['hello from A', 'A, while the server was down', 'B, while the server was down'];
    await expect.poll(async () => (await itemTexts(a, 'Messages')).sort(), { timeout: 15_000 }).toEqual(all.sort());
    await expect.poll(() => itemTexts(b, 'Messages'), { timeout: 15_000 }).toEqual(await itemTexts(a, 'Messages'));
  } finally {
    for (const device of devices) await device.close();
    await served.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
