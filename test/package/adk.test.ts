/**
 * The installed package with ADK in an app's own worker: ADK's Runner and LlmAgent
 * on this store (in-thread there), built by Vite with the package's `adkBrowser()`
 * plugin (`idb-adk-sessions/vite`) in `worker.plugins`, taken from the installed
 * tarball like the rest. ADK in the page is examples/adk-agent (adk-agent.test.ts).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright';
import type { Plugin } from 'vite';
import { build, preview } from 'vite';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';

const app = inject('consumerDir');
const outDir = path.join(app, 'out-vite-adk');
let browser: Browser;

declare global {
  interface Window {
    adkConsumer: {
      turnInWorker(text: string): Promise<{ replies: string[]; stored: string[] }>;
    };
  }
}

beforeAll(async () => {
  const installed = pathToFileURL(path.join(app, 'node_modules/idb-adk-sessions/dist/vite.js')).href;
  const { adkBrowser } = (await import(installed)) as { adkBrowser: () => Plugin };
  await build({
    root: app,
    configFile: false,
    logLevel: 'silent',
    plugins: [adkBrowser()],
    worker: { format: 'es', plugins: () => [adkBrowser()] },
    build: { outDir, emptyOutDir: true, rollupOptions: { input: path.join(app, 'adk.html') } },
  });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

it('runs ADK turns in a worker of the app, and the conversation survives the worker', async () => {
  const server = await preview({
    root: outDir,
    configFile: false,
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
  });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(new URL('adk.html', server.resolvedUrls?.local[0]).href);
    await page.waitForFunction(() => window.adkConsumer !== undefined);
    const turn = (text: string) => page.evaluate((t) => window.adkConsumer.turnInWorker(t), text);
    // Each turn runs in a fresh worker: the second reads what the first stored.
    expect(await turn('hello')).toEqual({ replies: ['echo: hello'], stored: ['hello', 'echo: hello'] });
    expect(await turn('again')).toEqual({
      replies: ['echo: again'],
      stored: ['hello', 'echo: hello', 'again', 'echo: again'],
    });
  } finally {
    await context.close();
    await server.close();
  }
});
