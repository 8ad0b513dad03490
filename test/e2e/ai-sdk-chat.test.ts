/**
 * The AI SDK example (examples/ai-sdk-chat), built and served, in each e2e engine:
 * `useChat` over the store in a worker, with the SDK's mock model. A chat comes
 * back after a reload, two tabs stay in step, what is typed offline is kept, and
 * an edited message and a regenerated reply are versions to switch between, the
 * same after a reload and in another tab, and a reply reloaded mid-stream is
 * shown cut off, marked, to keep once.
 */
import type { Locator, Page } from 'playwright';
import { expect, it } from 'vitest';
import { button, demoTabs, texts } from './helpers.js';

const tabs = demoTabs();
const EXAMPLE = 'ai-sdk-chat/';

/** Each message's text, without its buttons. */
function messages(page: Page): Promise<string[]> {
  return texts(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').locator('.body'));
}

/** The message whose text is `text`. */
const message = (page: Page, text: string) =>
  page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text });

async function send(page: Page, text: string): Promise<void> {
  // Typed key by key, as a user does: Playwright's `fill` sets the value from its own script world,
  // which in Firefox bypasses the value setter React watches, so React never sees the text.
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially(text);
  await button(page, 'Send').click();
}

it('chats, and the history is back after a reload', async () => {
  const { page } = await tabs.open(EXAMPLE);
  expect(await messages(page)).toEqual([]);
  await send(page, 'hello');
  await expect.poll(() => messages(page), { timeout: 10_000 }).toEqual(['hello', 'You said: hello']);
  // The chat list reads the title persistChat keeps in the session's state.
  await expect.poll(() => texts(page.getByRole('list', { name: 'Chats' }).getByRole('listitem'))).toEqual(['hello']);
  await send(page, 'and again');
  await expect
    .poll(() => messages(page), { timeout: 10_000 })
    .toEqual(['hello', 'You said: hello', 'and again', 'You said: and again']);
  await page.reload();
  await page.locator('html[data-ready="true"]').waitFor();
  await expect
    .poll(() => messages(page), { timeout: 10_000 })
    .toEqual(['hello', 'You said: hello', 'and again', 'You said: and again']);
});

it('two tabs stay in step', async () => {
  const a = await tabs.open(EXAMPLE);
  const b = await tabs.open(EXAMPLE);
  await send(a.page, 'from A');
  await expect.poll(() => b.page.evaluate(() => document.title)).toContain('Offline chat');
  await expect.poll(() => messages(b.page), { timeout: 10_000 }).toEqual(['from A', 'You said: from A']);
  await send(b.page, 'from B');
  await expect
    .poll(() => messages(a.page), { timeout: 10_000 })
    .toEqual(['from A', 'You said: from A', 'from B', 'You said: from B']);
});

it('offline, the history stays and a new message is kept though the model cannot answer', async () => {
  const { page } = await tabs.open(EXAMPLE);
  await send(page, 'online question');
  await expect
    .poll(() => messages(page), { timeout: 10_000 })
    .toEqual(['online question', 'You said: online question']);
  await page.context().setOffline(true);
  await send(page, 'typed offline');
  await page.getByRole('alert').filter({ hasText: 'offline' }).waitFor();
  expect(await messages(page)).toEqual(['online question', 'You said: online question', 'typed offline']);
  await page.context().setOffline(false);
  await page.reload();
  await page.locator('html[data-ready="true"]').waitFor();
  await expect
    .poll(() => messages(page), { timeout: 10_000 })
    .toEqual(['online question', 'You said: online question', 'typed offline']);
});

it('keeps an edited message and a regenerated reply as versions, the same after a reload and in another tab', async () => {
  const a = await tabs.open(EXAMPLE);
  await send(a.page, 'Plan Lisbon');
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual(['Plan Lisbon', 'You said: Plan Lisbon']);

  await button(message(a.page, 'You said'), 'Regenerate').click();
  await expect
    .poll(() => messages(a.page), { timeout: 10_000 })
    .toEqual(['Plan Lisbon', 'You said: Plan Lisbon (answer 2)']);
  const reply = message(a.page, 'You said');
  await expect.poll(() => reply.getByLabel('Version 2 of 2').count()).toBe(1);
  await button(reply, 'Previous version').click();
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual(['Plan Lisbon', 'You said: Plan Lisbon']);

  // Edit the question: the box takes its text, and what is sent replaces it from there on.
  await button(message(a.page, 'Plan Lisbon'), 'Edit').click();
  const box = a.page.getByRole('textbox', { name: 'Message' });
  await expect.poll(() => box.inputValue()).toBe('Plan Lisbon');
  await box.selectText();
  await box.press('Backspace');
  await send(a.page, 'Plan Porto');
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual(['Plan Porto', 'You said: Plan Porto']);
  await expect.poll(() => message(a.page, 'Plan Porto').first().getByLabel('Version 2 of 2').count()).toBe(1);

  const b = await tabs.open(EXAMPLE);
  await expect.poll(() => messages(b.page), { timeout: 10_000 }).toEqual(['Plan Porto', 'You said: Plan Porto']);
  await a.page.reload();
  await a.page.locator('html[data-ready="true"]').waitFor();
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual(['Plan Porto', 'You said: Plan Porto']);

  // Back to the first question: its conversation as it was left, the first reply shown, in both tabs.
  await button(message(a.page, 'Plan Porto').first(), 'Previous version').click();
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual(['Plan Lisbon', 'You said: Plan Lisbon']);
  await expect.poll(() => messages(b.page), { timeout: 10_000 }).toEqual(['Plan Lisbon', 'You said: Plan Lisbon']);
  await expect.poll(() => message(b.page, 'You said').getByLabel('Version 1 of 2').count()).toBe(1);
});

/** The example model's long reply, whole. */
const STORY = `Once upon a time ${'there was a chat that kept every word it was told. '.repeat(12)}The end.`;

/** Where `locator` falls outside the window or cuts its own content, in words; `[]` when it shows whole. */
async function clipped(page: Page, locator: Locator): Promise<string[]> {
  await locator.scrollIntoViewIfNeeded();
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  return locator.evaluate(
    (element, window) => {
      const box = element.getBoundingClientRect();
      const problems: string[] = [];
      if (box.width === 0 || box.height === 0) problems.push('has no size');
      if (box.left < 0 || box.right > window.width)
        problems.push(`spans ${box.left}..${box.right} px of ${window.width}`);
      if (box.top < 0 || box.bottom > window.height) problems.push(`is out of view vertically`);
      if (element.scrollWidth > element.clientWidth) problems.push('cuts its text');
      const page = document.documentElement.scrollWidth;
      if (page > window.width) problems.push(`sits in a page ${page} px wide`);
      return problems.map((problem) => `${element.textContent}: ${problem}`);
    },
    { width, height },
  );
}

it('shows a reply reloaded mid-stream cut off and marked, in every tab, and keeps it once', async () => {
  const a = await tabs.open(EXAMPLE);
  const b = await tabs.open(EXAMPLE);
  await send(a.page, 'Tell me a long story');
  // The other tab shows the reply growing, from its draft.
  await expect
    .poll(async () => (await messages(b.page))[1] ?? '', { timeout: 10_000 })
    .toMatch(/^Once upon a time there was a chat/);
  expect(await b.page.locator('li[data-draft="streaming"]').count()).toBe(1);

  await a.page.reload();
  await a.page.locator('html[data-ready="true"]').waitFor();
  const interrupted = a.page.getByRole('group', { name: 'Interrupted reply' });
  await interrupted.waitFor({ timeout: 10_000 });
  const [question, partial, ...more] = await messages(a.page);
  expect([question, more]).toEqual(['Tell me a long story', []]);
  expect(STORY.startsWith(partial?.trim() ?? 'none')).toBe(true);
  expect(partial?.trim().length).toBeLessThan(STORY.length);
  await expect.poll(() => messages(b.page), { timeout: 10_000 }).toEqual([question, partial]);
  await b.page.getByRole('group', { name: 'Interrupted reply' }).waitFor();

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await a.page.setViewportSize(viewport);
    const shown = [
      interrupted.getByText('Interrupted'),
      button(interrupted, 'Keep reply'),
      button(interrupted, 'Drop reply'),
    ];
    const problems = (await Promise.all(shown.map((part) => clipped(a.page, part)))).flat();
    expect([viewport.width, problems]).toEqual([viewport.width, []]);
  }

  await button(interrupted, 'Keep reply').click();
  await expect.poll(() => interrupted.count(), { timeout: 10_000 }).toBe(0);
  await expect.poll(() => a.page.locator('li[data-draft="kept"]').count()).toBe(1);
  await a.page.reload();
  await a.page.locator('html[data-ready="true"]').waitFor();
  await expect.poll(() => messages(a.page), { timeout: 10_000 }).toEqual([question, partial]);
  expect(await a.page.locator('li[data-draft="kept"]').count()).toBe(1);
  await expect.poll(() => messages(b.page), { timeout: 10_000 }).toEqual([question, partial]);
  expect(await b.page.getByRole('group', { name: 'Interrupted reply' }).count()).toBe(0);
});
