/**
 * Files in the demo: attached with the "Attach file" button or dropped on the
 * conversation, shown in the chat (an image as a thumbnail from an object URL, a
 * text as a preview, a Download link), listed under the inspector's Artifacts,
 * kept across a reload, and written by the demo agent ("save a note: ...").
 * Stored HTML never renders.
 */
import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import {
  button,
  chat,
  conversation,
  createSession,
  demoTabs,
  eventCount,
  firefoxLacks,
  inspector,
  screenshot,
} from './helpers.js';

const tabs = demoTabs();
/** Generous: the machine is shared, and each poll waits on IndexedDB and a worker. */
const SLOW = { timeout: 15_000 };
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The chat's messages, oldest first. */
const messages = (page: Page) => conversation(page).locator('li.msg');

/** The inspector's Artifacts fold, opened (as a user opens it) if it is closed. */
async function artifacts(page: Page): Promise<Locator> {
  const fold = inspector(page)
    .locator('details.fold')
    .filter({ has: page.locator('summary', { hasText: 'Artifacts' }) });
  if (!(await fold.evaluate((d: HTMLDetailsElement) => d.open))) await fold.locator('summary').click();
  return fold;
}

async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const before = await eventCount(page);
  const chooser = page.waitForEvent('filechooser');
  await button(page, 'Attach file').click();
  await (await chooser).setFiles(files);
  await expect.poll(() => eventCount(page), { timeout: 15_000 }).toBe(before + 1);
}

describe('attachments in the demo', () => {
  it.skipIf(firefoxLacks.downloads)(
    'attaches files: an image shows as a thumbnail, a text as a preview, both downloadable and listed',
    async () => {
      const { page } = await tabs.open();
      await createSession(page, { app: 'files', user: 'ada', id: 'trip' });
      // Remember every progress bar shown, however briefly.
      await page.evaluate(() => {
        const seen: string[] = [];
        Object.assign(window, { __bars: seen });
        new MutationObserver(() => {
          for (const bar of document.querySelectorAll('progress')) seen.push(bar.getAttribute('aria-label') ?? '');
        }).observe(document.body, { childList: true, subtree: true });
      });
      await attach(page, [
        { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
        { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('Day 1: Lisbon') },
      ]);
      const last = messages(page).last();
      const thumb = last.getByRole('img', { name: 'dot.png' });
      await thumb.waitFor();
      expect(await thumb.getAttribute('src')).toMatch(/^blob:/);
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth), SLOW).toBe(1);
      await expect.poll(() => last.locator('pre').textContent(), SLOW).toBe('Day 1: Lisbon');
      expect(await last.getByRole('link', { name: 'Download' }).count()).toBe(2);
      expect(await last.textContent()).toContain('[Uploaded Artifact: "dot.png"]');
      expect(await page.evaluate(() => (window as unknown as { __bars: string[] }).__bars)).toContain('Attaching');

      const download = page.waitForEvent('download');
      await last.getByRole('link', { name: 'Download' }).last().click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('plan.txt');

      const listed = await artifacts(page);
      await expect.poll(() => listed.textContent(), SLOW).toContain('dot.png');
      expect(await listed.textContent()).toContain('image/png');
      expect(await listed.textContent()).toContain('plan.txt');
      await screenshot(page, 'attachments');

      // Stored: a reload shows them again.
      await page.reload();
      await page.locator('html[data-ready="true"]').waitFor();
      await messages(page).last().getByRole('img', { name: 'dot.png' }).waitFor();
    },
  );

  it('takes files dropped on the conversation as attachments, not as an import; "__proto__" is just a name', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'drop' });
    const before = await eventCount(page);
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped text'], '__proto__', { type: 'text/markdown' }));
      return data;
    });
    const zone = conversation(page);
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => eventCount(page), { timeout: 15_000 }).toBe(before + 1);
    await expect.poll(() => messages(page).last().locator('pre').textContent(), SLOW).toBe('dropped text');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const listed = await artifacts(page);
    await expect.poll(() => listed.textContent(), SLOW).toContain('__proto__');
  });

  it('saves a note as an artifact when asked, and shows it under Artifacts', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'notes' });
    await chat(page, 'save a note: buy milk', 2);
    await expect
      .poll(() => conversation(page).textContent(), SLOW)
      .toContain('Saved your note as note.txt (version 0)');
    await expect.poll(() => messages(page).last().locator('pre').textContent(), SLOW).toBe('buy milk');
    // The list is read again as the agent's reply lands: poll for the whole entry, not twice.
    const listed = await artifacts(page);
    await expect
      .poll(() => listed.textContent(), SLOW)
      .toMatch(/note\.txt[\s\S]*text\/plain|text\/plain[\s\S]*note\.txt/);
  });

  it('keeps the Artifacts list on screen while it is read again', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'steady' });
    await chat(page, 'save a note: buy milk', 2);
    const listed = await artifacts(page);
    await expect.poll(() => listed.textContent(), SLOW).toContain('note.txt');
    // Remember every text the inspector's list shows, however briefly, from here on (in its shadow root).
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { __artifactTexts: seen });
      const root = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot as ShadowRoot;
      new MutationObserver(() => {
        seen.push(root.querySelector('ul[aria-label="Artifacts"]')?.textContent ?? '(gone)');
      }).observe(root, { childList: true, subtree: true, characterData: true });
    });
    // Each turn changes the session, and the inspector reads the list again.
    await chat(page, 'hello', 2);
    await chat(page, 'thank you', 2);
    const seen = await page.evaluate(() => (window as unknown as { __artifactTexts: string[] }).__artifactTexts);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => !text.includes('note.txt'))).toEqual([]);
  });

  it('never renders an attached HTML file: its text is shown as text, its download is not a page', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'html' });
    const html = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await attach(page, [{ name: 'evil.html', mimeType: 'text/html', buffer: Buffer.from(html) }]);
    await expect.poll(() => messages(page).last().locator('pre').textContent(), SLOW).toBe(html);
    const href = await messages(page).last().getByRole('link', { name: 'Download' }).getAttribute('href');
    expect(href).toMatch(/^blob:/);
    // Opened directly, the link's target downloads instead of rendering as a page of the demo's origin.
    const tab = await page.context().newPage();
    const opened = await tab.goto(href ?? '').then(
      () => 'rendered',
      (error: Error) => error.message,
    );
    expect(opened).toContain('Download is starting');
    await tab.close();
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});
