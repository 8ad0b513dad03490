/**
 * The main views in both color schemes: every kind of text on the page, the
 * app's and the mounted inspector's (in its shadow root), meets WCAG AA
 * contrast against what is actually behind it, and each view is saved as a
 * screenshot (test-results/e2e/) to look at.
 */
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appStatus,
  button,
  chat,
  createSession,
  events,
  firefoxLacks,
  generateSampleData,
  launch,
  openDemo,
  screenshot,
} from './helpers.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Contrast of each visible element matching `selectors` (text color over the
 * background composited from its ancestors), worst first.
 */
function contrasts(page: Page, selectors: string[]): Promise<{ selector: string; text: string; ratio: number }[]> {
  return page.evaluate((selectors) => {
    type RGBA = [number, number, number, number];
    const canvas = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const parse = (color: string): RGBA => {
      // The canvas normalises any CSS color (color-mix, color(srgb ...)) to #rrggbb or rgba().
      canvas.fillStyle = '#000';
      canvas.fillStyle = color;
      const c = canvas.fillStyle;
      if (c.startsWith('#')) return [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)).concat(1) as RGBA;
      const [r = 0, g = 0, b = 0, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
      // color-mix() results stay as `color(srgb r g b / a)`, channels from 0 to 1.
      return c.startsWith('color(srgb') ? [r * 255, g * 255, b * 255, a] : [r, g, b, a];
    };
    const over = (top: RGBA, bottom: RGBA): RGBA => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      const mix = (i: 0 | 1 | 2) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / (a || 1);
      return [mix(0), mix(1), mix(2), a];
    };
    const background = (el: Element | null): RGBA => {
      const layers: RGBA[] = [];
      // Up through the inspector's shadow root to its host, and on up the page.
      for (let e = el; e; e = e.parentElement ?? (e.parentNode as ShadowRoot | null)?.host ?? null) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let result: RGBA = parse(getComputedStyle(document.documentElement).backgroundColor);
      if (result[3] < 1) result = [255, 255, 255, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const luminance = ([r, g, b]: RGBA) => {
      const f = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const out: { selector: string; text: string; ratio: number }[] = [];
    for (const selector of selectors) {
      const shadow = document.querySelector('[data-idb-adk-inspector]')?.shadowRoot;
      const found = [...document.querySelectorAll(selector), ...(shadow?.querySelectorAll(selector) ?? [])].filter(
        (e) => (e as HTMLElement).offsetParent !== null && (e.textContent ?? '').trim() !== '',
      );
      for (const el of found.slice(0, 5)) {
        const bg = background(el);
        const fg = over(parse(getComputedStyle(el).color), bg);
        const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
        out.push({ selector, text: (el.textContent ?? '').trim().slice(0, 30), ratio: (hi + 0.05) / (lo + 0.05) });
      }
    }
    return out.sort((a, b) => a.ratio - b.ratio);
  }, selectors);
}

const TEXT = [
  // The app's.
  'body',
  '.pane-title',
  '.db-info',
  '.live',
  'button',
  'button.primary',
  '.session-id',
  '.meta',
  '.msg-head .author',
  '.msg-time',
  '.part-text',
  '.storage-facts dt',
  '.storage-facts dd',
  '.storage-note',
  '.sync-indicator',
  '.sync-field',
  '.statusbar',
  '.message',
  '.composer-hint',
  // The inspector's.
  '.bar h2',
  '.pickers label',
  '.muted',
  '.inv-id',
  '.inv-meta',
  '.ev-n',
  '.ev-time',
  '.ev-author',
  '.ev-text',
  '.tag',
  '.tag-call',
  '.tag-result',
  '.facts dt',
  '.facts dd',
  'caption',
  'tbody th',
  'td',
  '.j-key',
  '.j-str',
  '.j-num',
  '.j-time',
  'summary',
];

describe.each(['light', 'dark'] as const)('%s color scheme', (colorScheme) => {
  it.skipIf(firefoxLacks.mediaFeatures)(
    'meets WCAG AA text contrast on the main views, captured as screenshots',
    async () => {
      // Reduced motion: no highlight animation is caught halfway (and the page's reduced-motion rules run).
      const context = await browser.newContext({
        colorScheme,
        reducedMotion: 'reduce',
        viewport: { width: 1440, height: 900 },
      });
      const { page, errors, dialogs } = await openDemo(context);
      // The scheme asked for is the one the page is in (an engine that ignored it would test one twice).
      expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
        colorScheme === 'dark',
      );
      await screenshot(page, `empty-${colorScheme}`);

      await generateSampleData(page, { sessions: 60, eventsPerSession: 8, users: 4 });
      await expect.poll(() => appStatus(page).textContent(), { timeout: 30_000 }).toMatch(/Generated 60/);

      await createSession(page, { app: 'sample-app', user: 'user-001', id: 'tour' });
      await chat(page, 'my name is Ada', 2);
      await chat(page, 'add 2 and 3', 4);
      await chat(page, 'what can you do?', 2);
      // The inspector on the tool call: its details, its JSON, the state after it.
      await events(page).nth(3).click();
      await events(page).first().hover();
      const measured = await contrasts(page, TEXT);
      expect(measured.length).toBeGreaterThan(TEXT.length);
      const low = measured.filter((m) => m.ratio < 4.5).map((m) => `${m.selector} "${m.text}" ${m.ratio.toFixed(2)}`);
      expect(low).toEqual([]);
      await screenshot(page, `inspector-${colorScheme}`);

      await button(page, 'New session').click();
      await page.getByRole('dialog', { name: 'New session' }).waitFor();
      const inDialog = await contrasts(page, ['dialog label', 'dialog .field-hint', 'dialog input', 'dialog h2']);
      expect(inDialog.filter((m) => m.ratio < 4.5)).toEqual([]);
      await screenshot(page, `dialog-${colorScheme}`);

      expect(errors).toEqual([]);
      expect(dialogs).toEqual([]);
      await context.close();
    },
  );
});
