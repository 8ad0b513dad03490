/**
 * Export then import through the page: a file exported from one browser
 * profile, imported into a second, empty one (its own IndexedDB), holds the
 * same sessions, events and state. A bad file is refused with a visible error
 * and changes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appStatus,
  artefact,
  button,
  chat,
  conversation,
  createSession,
  eventCount,
  firefoxLacks,
  inspector,
  launch,
  type OpenedPage,
  openConversation,
  openDemo,
  picker,
  sessionOption,
  stateRows,
  texts,
} from './helpers.js';

let browser: Browser;
const contexts: BrowserContext[] = [];
const tabs: OpenedPage[] = [];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  for (const tab of tabs) {
    expect(tab.errors).toEqual([]);
    expect(tab.dialogs).toEqual([]);
  }
  for (const c of contexts) await c.close();
  await browser?.close();
});

async function profile(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  contexts.push(context);
  const tab = await openDemo(context);
  tabs.push(tab);
  // Remember every progress bar the page shows, however briefly.
  await tab.page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { __progressBars: seen });
    new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof Element)
            for (const p of [n, ...n.querySelectorAll('progress')])
              if (p.matches('progress')) seen.push(p.getAttribute('aria-label') ?? '');
    }).observe(document.body, { childList: true, subtree: true });
  });
  return tab.page;
}

/** The apps the inspector lists ("(no apps)" when the store is empty). */
const apps = (page: Page) => texts(picker(page, 'App').locator('option'));

const progressBars = (page: Page) =>
  page.evaluate(() => (window as unknown as { __progressBars: string[] }).__progressBars);

/** Exports through the Export dialog, choosing `scope`; returns the file's path. */
async function exportFile(page: Page, scope: RegExp, path: string, withFiles = false): Promise<string> {
  await button(page, 'Export').click();
  const dialog = page.getByRole('dialog', { name: 'Export sessions' });
  await dialog.getByRole('radio', { name: scope }).check();
  if (withFiles) await dialog.getByRole('checkbox', { name: 'Include attached files (a .zip)' }).check();
  const download = page.waitForEvent('download');
  await button(dialog, 'Export').click();
  await (await download).saveAs(path);
  return path;
}

async function importFile(page: Page, path: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button(page, 'Import').click();
  await (await chooser).setFiles(path);
}

/** The export's sessions in a stable order, without the export time. */
function sessionsOf(path: string): unknown[] {
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    sessions: { appName: string; userId: string; id: string }[];
  };
  const key = (s: { appName: string; userId: string; id: string }) => `${s.appName}\u0000${s.userId}\u0000${s.id}`;
  return [...file.sessions].sort((x, y) => (key(x) < key(y) ? -1 : 1));
}

describe('export and import', () => {
  it.skipIf(firefoxLacks.downloads)('round-trips every session, event and state into an empty store', async () => {
    const source = await profile();
    await createSession(source, { app: 'app-one', user: 'ada', id: 'ada-1', state: '{"topic": "export"}' });
    await chat(source, 'my name is Ada', 2);
    await chat(source, 'add 1 and 2', 4);
    await createSession(source, { app: 'app-one', user: 'bob', id: 'bob-1' });
    await chat(source, 'hello <b>bold</b> & "quotes"', 2);
    await createSession(source, { app: 'app-two', user: 'ada', id: 'ada-2' });
    await chat(source, 'what time is it', 4);

    const exported = await exportFile(source, /^Everything/, artefact('export-everything.json'));
    expect(await progressBars(source)).toContain('Export progress');
    const original = sessionsOf(exported);
    expect(original).toHaveLength(3);
    expect((original as { events: unknown[] }[]).map((s) => s.events.length)).toEqual([6, 2, 4]);

    // A second browser context is a separate, empty IndexedDB.
    const target = await profile();
    await expect.poll(() => apps(target)).toEqual(['(no apps)']);
    await importFile(target, exported);
    await expect
      .poll(() => appStatus(target).textContent())
      .toMatch(/Imported 3 sessions and 12 events from export-everything\.json\./);
    expect((await progressBars(target)).some((label) => label.startsWith('Import'))).toBe(true);

    // The inspector shows what was imported...
    await expect.poll(() => apps(target)).toEqual(['app-one', 'app-two']);
    await picker(target, 'App').selectOption('app-one');
    await expect
      .poll(() => texts(picker(target, 'User').locator('option')))
      .toEqual(['All users', 'ada (1)', 'bob (1)']);
    await picker(target, 'Session').selectOption(sessionOption('ada', 'ada-1'));
    await expect.poll(() => eventCount(target)).toBe(6);
    expect((await stateRows(target, 'User')).name?.[0]).toBe('"Ada"');
    expect((await stateRows(target, 'Session')).topic?.[0]).toBe('"export"');

    // ...and exporting it again gives the same sessions, field for field.
    const again = await exportFile(target, /^Everything/, artefact('export-again.json'));
    expect(sessionsOf(again)).toEqual(original);

    // Importing the same file again skips what exists and says so.
    await importFile(target, exported);
    await expect.poll(() => appStatus(target).textContent()).toMatch(/3 already existed and were skipped/);
  });

  it.skipIf(firefoxLacks.downloads)(
    'carries attached files and notes in a .zip export into another profile',
    async () => {
      const source = await profile();
      await createSession(source, { app: 'files', user: 'ada', id: 'trip' });
      const chooser = source.waitForEvent('filechooser');
      await button(source, 'Attach file').click();
      await (await chooser).setFiles([
        { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('Day 1: Lisbon') },
      ]);
      await expect.poll(() => eventCount(source)).toBe(1);
      await chat(source, 'save a note: pack the charger', 2);
      const exported = await exportFile(source, /^Everything/, artefact('export-with-files.zip'), true);
      expect(readFileSync(exported).subarray(0, 2).toString()).toBe('PK');

      const target = await profile();
      await importFile(target, exported);
      await expect
        .poll(() => appStatus(target).textContent())
        .toMatch(/Imported 1 sessions and 3 events and 2 files from export-with-files\.zip\./);
      // The files are there for the app's chat and for the inspector.
      await openConversation(target, { app: 'files', user: 'ada', id: 'trip' });
      const messages = conversation(target).locator('li.msg');
      await expect.poll(() => messages.first().locator('pre').textContent()).toBe('Day 1: Lisbon');
      await expect.poll(() => messages.last().locator('pre').textContent()).toBe('pack the charger');
      await inspector(target).locator('summary', { hasText: 'Artifacts' }).click();
      const panel = inspector(target).getByRole('list', { name: 'Artifacts' });
      await expect.poll(() => panel.textContent()).toMatch(/note\.txt.*plan\.txt/s);
    },
  );

  it.skipIf(firefoxLacks.downloads)('exports only the selected app or user when asked', async () => {
    const page = await profile();
    await createSession(page, { app: 'scoped', user: 'u1', id: 'one' });
    await chat(page, 'hi', 2);
    await createSession(page, { app: 'scoped', user: 'u2', id: 'two' });
    await chat(page, 'hi', 2);
    await createSession(page, { app: 'other', user: 'u1', id: 'three' });
    await chat(page, 'hi', 2);
    await page.goto(page.url().replace(/#.*/, '#app=scoped&user=u2'));
    await page.locator('html[data-ready="true"]').waitFor();
    const user = sessionsOf(await exportFile(page, /^User u2 in scoped/, artefact('export-user.json')));
    expect(user.map((s) => (s as { id: string }).id)).toEqual(['two']);
    const app = sessionsOf(await exportFile(page, /^App scoped/, artefact('export-app.json')));
    expect(app.map((s) => (s as { id: string }).id)).toEqual(['one', 'two']);
  });

  it.skipIf(firefoxLacks.repeatFileChooser)('refuses a bad file with a clear error and changes nothing', async () => {
    const page = await profile();
    const tab = tabs.at(-1) as OpenedPage;
    const bad = artefact('not-an-export.json');
    writeFileSync(bad, JSON.stringify({ format: 'something-else', sessions: [] }));
    await importFile(page, bad);
    const alert = page.getByRole('alert').filter({ hasText: 'Import failed' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /not-an-export\.json was not imported.*InvalidInputError \(INVALID_INPUT\).*format/,
    );
    const broken = artefact('broken.json');
    writeFileSync(broken, '{"format": "adk-sessions", "version": 1, "sessions": [');
    await importFile(page, broken);
    await page.getByRole('alert').filter({ hasText: 'broken.json was not imported' }).waitFor();
    expect(await apps(page)).toEqual(['(no apps)']);
    // Errors stay until dismissed.
    await button(page.getByRole('alert').first(), 'Dismiss').click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    // The page also logged both failures to the console, as a developer would want; nothing else.
    const logged = tab.errors.splice(0);
    expect(logged).toHaveLength(2);
    for (const line of logged) expect(line).toMatch(/^console: Import failed/);
  });
});
