/**
 * examples/ai-sdk-chat, built from the installed tarball (`useChat` with
 * `useStoredChat`, the store in a SharedWorker, the AI SDK's mock model), in two
 * tabs. Its server then stops (not only Playwright's `setOffline`, which does
 * not reach a SharedWorker's requests) and the tabs go offline: what is sent
 * then, a photo included, is stored, shown in both tabs and sendable from
 * either; search and export, first used then, work; all of it is there after a
 * reload once the server is back.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright';
import type { Plugin } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadedBy, workerEntryIn } from './chunks.js';
import { buildExample, itemTexts, launchChromium, typecheckExample } from './examples.js';
import { type Served, serveStatic } from './setups.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
let outDir: string;
let browser: Browser;

beforeAll(async () => {
  [outDir, browser] = await Promise.all([buildExample('ai-sdk-chat'), launchChromium()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** Notes every path the static server served. */
function recordServed(served: Set<string>): Plugin {
  return {
    name: 'record-served',
    configurePreviewServer(server) {
      server.middlewares.use((request, _, next) => {
        served.add(new URL(request.url ?? '/', 'http://x').pathname);
        next();
      });
    },
  };
}

/** Each message's text (not its buttons), and whether it shows a photo. */
const messages = (page: Page) =>
  page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .locator('.body')
    .evaluateAll((bodies) => bodies.map((body) => body.textContent + (body.querySelector('img') ? ' [photo]' : '')));

/** Whether each tab shows the photo as an image the browser decoded, from a `data:` URL. */
const photoShown = (page: Page) =>
  page
    .locator('li img')
    .evaluateAll((images) =>
      (images as HTMLImageElement[]).map(
        (img) => img.complete && img.naturalWidth === 1 && img.src.startsWith('data:'),
      ),
    );

async function send(page: Page, text: string, photo?: string): Promise<void> {
  if (photo)
    await page
      .getByLabel('Photo')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(photo, 'base64') });
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const ready = (page: Page) => page.locator('section[aria-busy="false"]').waitFor({ timeout: 30_000 });

it('type-checks under its own strict tsconfig against the installed package', () => {
  const run = typecheckExample('ai-sdk-chat');
  expect(run.output).toBe('');
  expect(run.status).toBe(0);
});

it('sends a photo with the server gone, shows it in both tabs, searches and exports, and keeps it all', async () => {
  const served = new Set<string>();
  let server: Served = await serveStatic(outDir, { plugins: [recordServed(served)] });
  const url = server.url;
  const context = await browser.newContext();
  try {
    const [a, b] = [await context.newPage(), await context.newPage()];
    for (const page of [a, b]) {
      await page.goto(url);
      await ready(page);
    }
    await send(a, 'hello');
    for (const page of [a, b]) {
      await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(['hello', 'You said: hello']);
      await expect.poll(() => itemTexts(page, 'Chats')).toEqual(['hello']);
    }

    // The worker fetched its later parts soon after starting, without being asked: then the server goes.
    const assets = path.join(outDir, 'assets');
    const worker = loadedBy(assets, workerEntryIn(assets));
    expect(worker.lazy.length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => worker.lazy.filter((f) => !served.has(`/assets/${f}`)), { timeout: 15_000 }).toEqual([]);
    const port = Number(new URL(url).port);
    await server.close();
    await expect(fetch(url)).rejects.toThrow();
    await context.setOffline(true);

    await send(a, 'a photo of a dot', PNG);
    await a.getByRole('alert').filter({ hasText: 'offline' }).waitFor();
    const sent = ['hello', 'You said: hello', 'a photo of a dot [photo]'];
    for (const page of [a, b]) {
      await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(sent);
      await expect.poll(() => photoShown(page)).toEqual([true]);
    }
    await b.getByRole('searchbox', { name: 'Search' }).fill('photo dot');
    await b.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => itemTexts(b, 'Search results')).toEqual(['a photo of a dot']);
    const [download] = await Promise.all([
      b.waitForEvent('download'),
      b.getByRole('button', { name: 'Export all chats' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('chats.zip');
    const zip = unzipSync(readFileSync(await download.path()));
    expect(new TextDecoder().decode(zip['sessions.json'])).toContain('a photo of a dot');
    expect(new TextDecoder().decode(zip['artifacts.json'])).toContain('chat-files/');
    expect(Buffer.from(zip['files/1'] ?? []).toString('base64')).toBe(PNG);

    server = await serveStatic(outDir, { port, plugins: [recordServed(served)] });
    await context.setOffline(false);
    for (const page of [a, b]) {
      await page.reload();
      await ready(page);
      await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(sent);
      await expect.poll(() => photoShown(page)).toEqual([true]);
    }
    // The other tab sends next: the photo goes to the model with the history, and both tabs show the answer.
    await send(b, 'what was in it?');
    for (const page of [a, b]) {
      await expect
        .poll(() => messages(page), { timeout: 15_000 })
        .toEqual([...sent, 'what was in it?', 'You said: what was in it? (1 photo in this chat)']);
    }
  } finally {
    await context.close();
    await server.close();
  }
});
