/**
 * The demo at the widths people open it at: three laptop screens and a phone. At each, the main
 * flow (a session, the ADK agent asking before a transfer, Approve, Reject, a search in the
 * inspector) runs, and the element boxes are checked, the mounted inspector's (in its shadow root)
 * with the app's: a usable message box with its hint readable, event numbers and times inside
 * their rows, state keys on one line, panels side by side or stacked but never overlapping, and no
 * sideways scrolling. The inspector's event list must keep following new events after Approve and
 * Reject, and so must the app's conversation (the confirmation bar changes its height). `UPDATE_SCREENSHOTS=1` saves a picture of
 * each width into docs/screenshots for the docs; without it nothing is written into the repository.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { appStatus, button, createSession, demoTabs, eventCount, inspector } from './helpers.js';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

const UPDATE_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

const tabs = demoTabs();

const confirmation = (page: Page) => page.getByRole('group', { name: 'Confirmation' });
const message = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
const statusText = (page: Page) => appStatus(page).textContent();
const syncForm = (page: Page) => page.getByRole('form', { name: 'Sync settings' });

async function send(page: Page, text: string): Promise<void> {
  const before = await eventCount(page);
  await message(page).fill(text);
  await button(page, 'Send').click();
  await expect.poll(() => eventCount(page), { timeout: 30_000 }).toBeGreaterThan(before);
  // The turn is over when the composer is unlocked again.
  await expect.poll(() => button(page, 'Send').isEnabled(), { timeout: 30_000 }).toBe(true);
}

/**
 * How the newest entry sits in a scrolling list: its bottom edge against the list's. `list` is
 * the inspector's event list (in its shadow root: `document` queries do not reach it) or the app's
 * conversation.
 */
function newestEvent(page: Page, list: 'inspector' | 'chat'): Promise<{ text: string; below: number; above: number }> {
  return page.evaluate((list) => {
    const root = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot;
    const scroller = (
      list === 'inspector' ? root?.querySelector('.scroller') : document.querySelector('.conversation-scroll')
    ) as HTMLElement;
    const rows = [...scroller.querySelectorAll(list === 'inspector' ? 'li:has(> .ev)' : 'li.msg')];
    const newest = rows.at(-1) as HTMLElement;
    const box = scroller.getBoundingClientRect();
    const event = newest.getBoundingClientRect();
    return {
      text: newest.textContent ?? '',
      below: Math.round(event.bottom - box.bottom),
      above: Math.round(box.top - event.top),
    };
  }, list);
}

/**
 * Waits until each list shows its text as its newest entry, then asks that it be in view (the list
 * followed). The chat shows messages only: ADK's confirmation request is the bar under it.
 */
async function expectFollowing(page: Page, newest: { inspector: string; chat: string }): Promise<void> {
  for (const list of ['inspector', 'chat'] as const) {
    const text = newest[list];
    await expect.poll(async () => (await newestEvent(page, list)).text, { timeout: 30_000 }).toContain(text);
    // A list settles on its end within a frame or two of the last render.
    await expect.poll(async () => (await newestEvent(page, list)).below, { message: list }).toBeLessThanOrEqual(1);
    const { above } = await newestEvent(page, list);
    expect(above, list).toBeLessThanOrEqual(0);
  }
}

/** Everything the layout gets wrong at the page's current size, as readable lines (none expected). */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const box = (el: Element) => el.getBoundingClientRect();
    // The inspector's elements are in its shadow root: every query below looks in both.
    const shadow = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot;
    if (!shadow) return ['no inspector on the page'];
    const all = (selector: string) => [...document.querySelectorAll(selector), ...shadow.querySelectorAll(selector)];
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
    const width = window.innerWidth;
    const root = document.documentElement;
    if (root.scrollWidth > width) problems.push(`the document is ${root.scrollWidth} px wide in a ${width} px window`);
    if (document.body.scrollWidth > width) problems.push(`the body is ${document.body.scrollWidth} px wide`);
    // What pushes past the window's right edge: the innermost such elements, named.
    const past = [...document.body.querySelectorAll('*'), ...shadow.querySelectorAll('*')].filter(
      (el) => box(el).width > 0 && box(el).right > width + 0.5,
    );
    for (const el of past.filter((el) => !past.some((other) => other !== el && el.contains(other))).slice(0, 5))
      problems.push(`${name(el)} ends at ${box(el).right} px: "${(el.textContent ?? '').slice(0, 40)}"`);

    const input = document.querySelector('input[aria-label="Message"]') as HTMLInputElement;
    if (box(input).width < 240) problems.push(`the message box is ${Math.round(box(input).width)} px wide`);
    const hint = document.getElementById(input.getAttribute('aria-describedby') ?? '');
    if (!hint || box(hint).height === 0) problems.push('the message box has no visible hint');
    else if (hint.scrollWidth > hint.clientWidth || box(hint).right > width)
      problems.push(`the message hint is cut: "${hint.textContent}"`);

    for (const row of shadow.querySelectorAll('.ev')) {
      const edge = box(row);
      for (const part of row.querySelectorAll('.ev-n, .ev-time')) {
        const b = box(part);
        if (b.right > edge.right || b.left < edge.left)
          problems.push(`${name(part)} "${part.textContent}" sticks out of its event (${b.right} > ${edge.right})`);
      }
    }

    for (const key of shadow.querySelectorAll('table.scope tbody th')) {
      const text = key.textContent ?? '';
      const range = document.createRange();
      range.selectNodeContents(key);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) problems.push(`state key "${text}" wraps over ${lines.size} lines`);
      const title = key.getAttribute('title') ?? '';
      if (key.scrollWidth > key.clientWidth && !title.endsWith(text))
        problems.push(`state key "${text}" is cut and its title "${title}" does not give it whole`);
    }

    // The app's column and the inspector, the chat's parts, the inspector's columns: side by side
    // or stacked, never on top of each other.
    const panels = [
      ...all('.panes > *'),
      ...all('.app-col > *'),
      ...all('.chat-body > :not([hidden])'),
      ...all('.inspector > *'),
      ...all('.main > .col'),
    ].filter((el) => box(el).width > 0 && box(el).height > 0);
    for (const el of panels) {
      if (box(el).right > width + 0.5) problems.push(`${name(el)} ends at ${Math.round(box(el).right)} px`);
    }
    // Containment across the shadow boundary: the inspector's columns are inside its pane.
    const within = (outer: Element, inner: Element) => {
      for (let n: Node | null = inner; n; n = n.parentNode ?? (n instanceof ShadowRoot ? n.host : null))
        if (n === outer) return true;
      return false;
    };
    for (const [i, a] of panels.entries()) {
      for (const b of panels.slice(i + 1)) {
        if (within(a, b) || within(b, a)) continue;
        const [p, q] = [box(a), box(b)];
        const overlapX = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const overlapY = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (overlapX > 1 && overlapY > 1) problems.push(`${name(a)} and ${name(b)} overlap`);
      }
    }
    return problems;
  });
}

describe.each(VIEWPORTS)('the demo at $width x $height', (viewport) => {
  it('lays out the session, follows the events after Approve and Reject, and tidies its messages', async () => {
    const { page } = await tabs.open('', { viewport });
    // Nothing selected yet: Sync offers the demo's default app and user.
    expect(await syncForm(page).getByLabel('App name').inputValue()).toBe('demo-app');
    const id = randomUUID();
    await createSession(page, { app: 'bank', user: 'ada', id });
    expect(await statusText(page)).toBe(`Created session ${id}.`);
    // Once a session is open, Sync offers its app and user.
    expect(await syncForm(page).getByLabel('App name').inputValue()).toBe('bank');
    expect(await syncForm(page).getByLabel('User id').inputValue()).toBe('ada');

    await page.getByRole('combobox', { name: 'Agent' }).selectOption('adk');
    // Enough turns that the events overflow their list by more than the confirmation bar's height.
    const overflow = () =>
      inspector(page)
        .locator('.scroller')
        .evaluate((el) => el.scrollHeight - el.clientHeight - 2 * 80);
    while ((await overflow()) < 0) await send(page, 'add 2 and 3');

    await send(page, 'send 5 to Bob');
    await expect.poll(() => confirmation(page).isVisible(), { timeout: 30_000 }).toBe(true);
    await expectFollowing(page, { inspector: 'adk_request_confirmation', chat: 'send 5 to Bob' });
    await button(confirmation(page), 'Approve').click();
    await expectFollowing(page, { inspector: 'Sent 5 to Bob.', chat: 'Sent 5 to Bob.' });
    await expect.poll(() => confirmation(page).isVisible()).toBe(false);

    await send(page, 'send 7 to Eve');
    await expect.poll(() => confirmation(page).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await layoutProblems(page)).toEqual([]);
    if (UPDATE_SCREENSHOTS) {
      await page.screenshot({
        path: `docs/screenshots/demo-${viewport.width}x${viewport.height}.png`,
        fullPage: viewport.width < 600,
      });
    }
    await button(confirmation(page), 'Reject').click();
    await expectFollowing(page, {
      inspector: 'Not done: This tool call is rejected.',
      chat: 'Not done: This tool call is rejected.',
    });
    await expect.poll(() => confirmation(page).isVisible()).toBe(false);
    expect(await layoutProblems(page)).toEqual([]);

    // A search hit in the inspector names its session on one line, the whole id in its title.
    await inspector(page).getByRole('searchbox', { name: 'Search this user' }).fill('Bob');
    await button(inspector(page), 'Search').click();
    const hit = inspector(page)
      .getByRole('list', { name: 'Search results' })
      .getByRole('button')
      .filter({ hasText: id });
    await hit.first().waitFor({ timeout: 10_000 });
    const shown = await hit
      .first()
      .locator('.hit-where')
      .evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const results = (el.closest('ul') as HTMLElement).getBoundingClientRect();
        return { lines, title: el.getAttribute('title'), right: results.right };
      });
    expect(shown).toEqual({ lines: 1, title: `ada / ${id}`, right: expect.any(Number) });
    expect(shown.right).toBeLessThanOrEqual(viewport.width);
    expect(await layoutProblems(page)).toEqual([]);
    await button(inspector(page), 'Clear search').click();

    // The status bar's "Created session …" (and any later message) goes by itself.
    await expect.poll(() => statusText(page), { timeout: 15_000 }).toBe('');
  }, 120_000);
});

describe('the conversation', () => {
  it('stays where the reader scrolled up to while messages land, and follows again from its end', async () => {
    const { page } = await tabs.open('', { viewport: { width: 1280, height: 800 } });
    await createSession(page, { app: 'bank', user: 'ada', id: randomUUID() });
    const scroller = page.locator('.conversation-scroll');
    const overflow = () => scroller.evaluate((el) => el.scrollHeight - el.clientHeight);
    while ((await overflow()) < 200) await send(page, 'hello');
    await expectFollowing(page, { inspector: 'hello', chat: 'hello' });

    // The reader scrolls up with the wheel, as a reader does; a new turn lands below, out of view.
    await scroller.hover();
    await page.mouse.wheel(0, -150);
    await expect.poll(async () => (await newestEvent(page, 'chat')).below).toBeGreaterThan(100);
    const top = await scroller.evaluate((el) => el.scrollTop);
    await send(page, 'still there?');
    await expect.poll(async () => (await newestEvent(page, 'chat')).text).toContain('still there?');
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(top);

    // Back at the end, the list follows again (Send moved the mouse away from the list).
    await scroller.hover();
    await page.mouse.wheel(0, 10_000);
    await expect.poll(async () => (await newestEvent(page, 'chat')).below).toBeLessThanOrEqual(1);
    await send(page, 'and now?');
    await expectFollowing(page, { inspector: 'and now?', chat: 'and now?' });
  }, 60_000);
});
