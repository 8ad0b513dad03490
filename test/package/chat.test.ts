/**
 * A chat app built from the installed tarball (app/chat-main.js: `useChat` with
 * `useStoredChat`, the store in a SharedWorker, the model behind the server's
 * /api/chat), in two tabs, with its server stopped: not Playwright's
 * `setOffline`, which does not reach a SharedWorker's requests. What is sent
 * then, a photo included, is stored, shown in both tabs and sendable from
 * either; search and export first used then work; all of it is there after a
 * reload once the server is back.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { unzipSync } from 'fflate';
import { type Browser, chromium, type Page } from 'playwright';
import { build, type Plugin } from 'vite';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { echoModel } from '../../examples/ai-sdk-chat/model.js';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { loadedBy } from './chunks.js';
import { type Served, serveStatic } from './setups.js';

const app = inject('consumerDir');
const outDir = path.join(app, 'out-vite-chat');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
let browser: Browser;

declare global {
  interface Window {
    chatApp: { search(query: string): Promise<string[]>; exportAll(): Promise<string> };
  }
}

beforeAll(async () => {
  // As the README asks of Vite users: module workers, so the worker's later parts are chunks of their own.
  await build({
    root: app,
    configFile: false,
    logLevel: 'silent',
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, rollupOptions: { input: path.join(app, 'chat.html') } },
  });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/** The app's server: every path it served, and /api/chat answering with the mock model, noting each file's URL scheme. */
function chatServer(served: Set<string>, schemes: string[][]): Plugin {
  return {
    name: 'chat-server',
    configurePreviewServer(server) {
      server.middlewares.use((request, _, next) => {
        served.add(new URL(request.url ?? '/', 'http://x').pathname);
        next();
      });
      server.middlewares.use('/api/chat', async (request, response) => {
        let body = '';
        for await (const chunk of request) body += chunk;
        const { messages } = JSON.parse(body) as { messages: UIMessage[] };
        schemes.push(
          messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'file' ? [p.url.split(':')[0] as string] : []))),
        );
        const result = streamText({ model: echoModel(), messages: await convertToModelMessages(messages) });
        result.pipeUIMessageStreamToResponse(response, { onError: (error) => String(error) });
      });
    },
  };
}

const messages = (page: Page) =>
  page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((li) => li.textContent + (li.querySelector('img') ? ' [photo]' : '')));

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

const ready = (page: Page) => page.locator('section[data-status="ready"]').waitFor({ timeout: 30_000 });

it('sends a photo with the server gone, shows it in both tabs, searches and exports, and keeps it all', async () => {
  const served = new Set<string>();
  const schemes: string[][] = [];
  let server: Served = await serveStatic(outDir, { plugins: [chatServer(served, schemes)] });
  const url = new URL('chat.html?chat=c1', server.url).href;
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
      await expect.poll(() => page.getByRole('list', { name: 'Chats' }).textContent()).toBe('hello');
    }

    // The worker fetched its later parts soon after starting, without being asked: then the server goes.
    const assets = path.join(outDir, 'assets');
    const worker = loadedBy(assets, readdirSync(assets).find((f) => f.startsWith('store-')) as string);
    expect(worker.lazy.length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => worker.lazy.filter((f) => !served.has(`/assets/${f}`)), { timeout: 15_000 }).toEqual([]);
    const port = Number(new URL(server.url).port);
    await server.close();
    await expect(fetch(url)).rejects.toThrow();

    await send(a, 'a photo of a dot', PNG);
    await a.getByRole('alert').waitFor();
    const sent = ['hello', 'You said: hello', 'a photo of a dot [photo]'];
    for (const page of [a, b]) {
      await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(sent);
      await expect.poll(() => photoShown(page)).toEqual([true]);
    }
    expect(await b.evaluate(() => window.chatApp.search('photo dot'))).toEqual(['a photo of a dot']);
    const zip = unzipSync(Buffer.from(await b.evaluate(() => window.chatApp.exportAll()), 'base64'));
    expect(new TextDecoder().decode(zip['sessions.json'])).toContain('a photo of a dot');
    expect(new TextDecoder().decode(zip['artifacts.json'])).toContain('chat-files/');
    expect(Buffer.from(zip['files/1'] ?? []).toString('base64')).toBe(PNG);

    server = await serveStatic(outDir, { port, plugins: [chatServer(served, schemes)] });
    for (const page of [a, b]) {
      await page.reload();
      await ready(page);
      await expect.poll(() => messages(page), { timeout: 15_000 }).toEqual(sent);
      await expect.poll(() => photoShown(page)).toEqual([true]);
    }
    // The other tab sends next: the photo goes with the history as the data: URL it was sent as.
    await send(b, 'what was in it?');
    for (const page of [a, b]) {
      await expect
        .poll(() => messages(page), { timeout: 15_000 })
        .toEqual([...sent, 'what was in it?', 'You said: what was in it?']);
    }
    expect(schemes.at(-1)).toEqual(['data']);
  } finally {
    await context.close();
    await server.close();
  }
});
