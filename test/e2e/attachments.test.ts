/**
 * Files in the demo: attached with the "Attach file" button or dropped on the
 * events, shown inline (an image as a thumbnail from an object URL, a text as a
 * preview, a Download link), listed under Artifacts, kept across a reload, and
 * written by the demo agent ("save a note: ..."). Stored HTML never renders.
 */
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { button, chat, createSession, demoTabs, events, firefoxLacks, screenshot, timeline } from './helpers.js';

const tabs = demoTabs();
/** Generous: the machine is shared, and each poll waits on IndexedDB and a worker. */
const SLOW = { timeout: 15_000 };
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const artifacts = (page: Page) => page.getByRole('region', { name: 'Artifacts' });

async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const before = await events(page).count();
  const chooser = page.waitForEvent('filechooser');
  await button(page, 'Attach file').click();
  await (await chooser).setFiles(files);
  await expect.poll(() => events(page).count(), { timeout: 15_000 }).toBe(before + 1);
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
      const last = events(page).last();
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

      await expect.poll(() => artifacts(page).textContent(), SLOW).toContain('dot.png');
      expect(await artifacts(page).textContent()).toContain('image/png');
      expect(await artifacts(page).textContent()).toContain('plan.txt');
      await screenshot(page, 'attachments');

      // Stored: a reload shows them again.
      await page.reload();
      await page.locator('html[data-ready="true"]').waitFor();
      await events(page).last().getByRole('img', { name: 'dot.png' }).waitFor();
    },
  );

  it('takes files dropped on the events as attachments, not as an import; "__proto__" is just a name', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'drop' });
    const before = await events(page).count();
    const transfer = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped text'], '__proto__', { type: 'text/markdown' }));
      return data;
    });
    const zone = timeline(page);
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => events(page).count(), { timeout: 15_000 }).toBe(before + 1);
    await expect.poll(() => events(page).last().locator('pre').textContent(), SLOW).toBe('dropped text');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => artifacts(page).textContent(), SLOW).toContain('__proto__');
  });

  it('saves a note as an artifact when asked, and shows it under Artifacts', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'notes' });
    await chat(page, 'save a note: buy milk', 2);
    await expect.poll(() => timeline(page).textContent(), SLOW).toContain('Saved your note as note.txt (version 0)');
    await expect.poll(() => events(page).last().locator('pre').textContent(), SLOW).toBe('buy milk');
    // The list is read again as the agent's reply lands: poll for the whole entry, not twice.
    await expect
      .poll(() => artifacts(page).textContent(), SLOW)
      .toMatch(/note\.txt[\s\S]*text\/plain|text\/plain[\s\S]*note\.txt/);
  });

  it('keeps the Artifacts list on screen while it is read again', async () => {
    const { page } = await tabs.open();
    await createSession(page, { app: 'files', user: 'ada', id: 'steady' });
    await chat(page, 'save a note: buy milk', 2);
    await expect.poll(() => artifacts(page).textContent(), SLOW).toContain('note.txt');
    // Remember every text the panel shows, however briefly, from here on.
    await page.evaluate(() => {
      const seen: string[] = [];
      Object.assign(window, { __artifactTexts: seen });
      new MutationObserver(() => {
        seen.push(document.querySelector('[aria-label="Artifacts"]')?.textContent ?? '(gone)');
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // Each turn shows the session again, and the panel reads the list again.
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
    await expect.poll(() => events(page).last().locator('pre').textContent(), SLOW).toBe(html);
    const href = await events(page).last().getByRole('link', { name: 'Download' }).getAttribute('href');
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
