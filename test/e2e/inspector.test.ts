/**
 * The demo inspector, built and served as it ships, in real Chromium: a
 * session's life (create, chat with the demo agent, inspect events and state
 * by scope, delete), keyboard use, filtering and paging.
 */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../demo/format.js';
import {
  attributes,
  button,
  chat,
  createSession,
  demoTabs,
  events,
  generateSampleData,
  type OpenedPage,
  sessionRows,
  sessionTitle,
  stateRows,
  testedEngine,
  texts,
} from './helpers.js';

const tabs = demoTabs();
const fresh = (): Promise<OpenedPage> => tabs.open();

describe('demo inspector', () => {
  it('starts empty and says what to do', async () => {
    const { page } = await fresh();
    await expect.poll(() => page.getByRole('list', { name: 'Apps' }).textContent()).toContain('No apps yet');
    expect(await page.getByRole('list', { name: 'Sessions', exact: true }).textContent()).toContain(
      'The store is empty. Start a conversation with New session',
    );
    expect(await page.getByRole('region', { name: 'Session', exact: true }).textContent()).toContain(
      'No session selected',
    );
    for (const name of ['New session', 'Generate sample data', 'Export', 'Import']) {
      expect(await button(page, name).isVisible(), name).toBe(true);
    }
    expect(await page.locator('.db-info').textContent()).toContain('SharedWorker');

    // Storage: usage, quota and persistence from the Storage API, and a way to ask for persistence.
    const storage = page.getByRole('region', { name: 'Storage' });
    const facts = await texts(storage.locator('dt'));
    expect(facts).toEqual(expect.arrayContaining(['Used', 'Quota', 'Persistent']));
    const estimate = await page.evaluate(() => navigator.storage.estimate());
    expect(await storage.textContent()).toContain(formatBytes(estimate.quota ?? 0));
    // Firefox asks the user (a prompt headless Firefox leaves open); this is the user allowing it.
    // Chromium decides alone, and Playwright's Chromium knows no such permission.
    if (testedEngine.name === 'firefox') {
      await page.context().grantPermissions(['persistent-storage'], { origin: new URL(page.url()).origin });
    }
    await button(storage, 'Request persistent storage').click();
    await expect.poll(() => storage.textContent()).toMatch(/Granted|Declined/);
  });

  it('creates a session, chats with the demo agent, and shows events and state by scope', async () => {
    const { page } = await fresh();
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'first-chat' });
    expect(await sessionTitle(page).textContent()).toBe('first-chat');
    expect(await sessionRows(page).count()).toBe(1);
    await expect.poll(() => page.getByRole('list', { name: 'Apps' }).textContent()).toContain('demo-app');

    // After creation the message box has the focus: typing and Enter sends.
    await page.keyboard.type('my name is Ada');
    await page.keyboard.press('Enter');
    await expect.poll(() => events(page).count()).toBe(2);
    await chat(page, 'add 2 and 3', 4); // user, function call, function response, reply
    await chat(page, 'hello there', 2);

    const shown = await texts(events(page));
    expect(shown[0]).toContain('my name is Ada');
    expect(shown[1]).toContain('Nice to meet you, Ada');
    // The tool call and its response are shown as a call with arguments and a result.
    const call = events(page).nth(3).locator('.part-call');
    expect(await call.textContent()).toMatch(/call\s*add\s*\(\{"a": 2, "b": 3\}\)/);
    const response = events(page).nth(4).locator('.part-response');
    expect(await response.textContent()).toMatch(/result\s*add.*\{"result": 5\}/);
    expect(shown[5]).toContain('2 + 3 = 5');
    expect(shown[7]).toContain('Hello, Ada! You said "hello there"');

    // Each event's state delta is shown as chips naming the scope each key went to.
    const chips = await texts(events(page).nth(1).getByRole('list', { name: 'State changes' }).locator('li'));
    expect(chips).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^app\s*message_count\s*=\s*1$/),
        expect.stringMatching(/^session\s*step\s*=\s*1$/),
        expect.stringMatching(/^user\s*name\s*=\s*"Ada"$/),
      ]),
    );
    // temp: keys were used within the turn and never stored: no chip, no state.
    expect((await texts(events(page))).join('\n')).not.toMatch(/temp\s*message/);

    const app = await stateRows(page, 'App');
    const user = await stateRows(page, 'User');
    const session = await stateRows(page, 'Session');
    expect(app.message_count?.[0]).toBe('3');
    expect(user.name?.[0]).toBe('"Ada"');
    expect(session.step?.[0]).toBe('3');
    expect(session.last_intent?.[0]).toBe('"chat"');
    expect(Object.keys(session).some((k) => k.startsWith('temp'))).toBe(false);
    // For each key, the event that last set it: user:name was set by the first reply.
    expect(user.name?.[1]).toMatch(/^demo_agent at \d\d:\d\d:\d\d/);
    await page
      .getByRole('region', { name: /^User state/ })
      .getByRole('button')
      .first()
      .click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('Nice to meet you');

    // A second session of the same user sees user:name; a new user does not.
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'second-chat' });
    expect((await stateRows(page, 'User')).name?.[0]).toBe('"Ada"');
    expect((await stateRows(page, 'App')).message_count?.[0]).toBe('3');
    await createSession(page, { app: 'demo-app', user: 'bob', id: 'bobs-chat' });
    expect(await stateRows(page, 'User')).toEqual({});
    await chat(page, 'hi', 2);
    expect((await stateRows(page, 'App')).message_count?.[0]).toBe('4');
    expect(await events(page).nth(1).textContent()).toContain('message 4 to "demo-app"');
  });

  it('deletes a session after confirmation, keeping app and user state', async () => {
    const { page } = await fresh();
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'keep-me' });
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'delete-me' });
    await chat(page, 'my name is Ada', 2);

    // Cancel first: nothing happens.
    await button(page, 'Delete session').click();
    const confirm = page.getByRole('dialog', { name: 'Delete session?' });
    expect(await confirm.textContent()).toContain('delete-me');
    await button(confirm, 'Cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await sessionTitle(page).textContent()).toBe('delete-me');

    await button(page, 'Delete session').click();
    await button(page.getByRole('dialog', { name: 'Delete session?' }), 'Delete').click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Session', exact: true }).textContent())
      .toContain('No session selected');
    await expect.poll(() => texts(sessionRows(page))).toEqual([expect.stringContaining('keep-me')]);
    expect(await page.getByRole('status').textContent()).toContain('Deleted session delete-me');

    // The deleted session's user state stays with the user.
    await sessionRows(page).first().click();
    await sessionTitle(page).filter({ hasText: 'keep-me' }).waitFor();
    expect((await stateRows(page, 'User')).name?.[0]).toBe('"Ada"');

    // Its URL now says it is gone.
    await page.goto(page.url().replace('keep-me', 'delete-me'));
    await expect
      .poll(() => page.getByRole('region', { name: 'Session', exact: true }).textContent())
      .toContain('No such session');
  });

  it('is operable with the keyboard alone', async () => {
    const { page } = await fresh();
    // Tab reaches the search box, then New session, from the top of the page; Enter opens its dialog with focus inside.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search conversations');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New session');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await createSession(page, { app: 'kb-app', user: 'u1', id: 's-1' });
    await createSession(page, { app: 'kb-app', user: 'u1', id: 's-2' });
    // "/" jumps to the filter; arrow keys move through the session list; Enter opens a session.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Filter sessions');
    await page.keyboard.press('Tab'); // into the list
    await page.keyboard.press('Home');
    const first = await page.evaluate(() => document.activeElement?.textContent ?? '');
    await page.keyboard.press('ArrowDown');
    const second = await page.evaluate(() => document.activeElement?.textContent ?? '');
    expect([first, second].map((t) => t.match(/s-\d/)?.[0]).sort()).toEqual(['s-1', 's-2']);
    await page.keyboard.press('Enter');
    await sessionTitle(page)
      .filter({ hasText: second.match(/s-\d/)?.[0] ?? '?' })
      .waitFor();
  });

  it('filters sessions by id and by state value', async () => {
    const { page } = await fresh();
    await createSession(page, { app: 'f-app', user: 'u1', id: 'alpha', state: '{"topic": "billing"}' });
    await createSession(page, { app: 'f-app', user: 'u2', id: 'beta', state: '{"topic": "travel"}' });
    await createSession(page, { app: 'f-app', user: 'u2', id: 'gamma', state: '{"topic": "billing", "n": 2}' });
    await page.getByRole('link', { name: /^All users/ }).click();
    await expect.poll(() => sessionRows(page).count()).toBe(3);
    const filter = page.getByRole('searchbox', { name: 'Filter sessions' });
    const ids = async () => (await texts(sessionRows(page).locator('.row-id'))).sort();
    await filter.fill('amm');
    await expect.poll(ids).toEqual(['gamma']);
    await filter.fill('billing');
    await expect.poll(ids).toEqual(['alpha', 'gamma']);
    await filter.fill('topic=travel');
    await expect.poll(ids).toEqual(['beta']);
    await filter.fill('n=2');
    await expect.poll(ids).toEqual(['gamma']);
    await filter.fill('nothing-like-this');
    await expect
      .poll(() => page.getByRole('list', { name: 'Sessions', exact: true }).textContent())
      .toContain('No session matches');
    await filter.fill('');
    await expect.poll(ids).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('generates sample data with a progress bar and pages through it', async () => {
    const { page } = await fresh();
    await generateSampleData(page, { sessions: 120, eventsPerSession: 6, users: 3 });
    // The progress bar is visible while it runs, and gone when done.
    await page.getByRole('progressbar', { name: 'Generate sample data progress' }).waitFor();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 30_000 })
      .toMatch(/Generated 120 sessions and 720 events/);
    expect(await page.getByRole('progressbar').count()).toBe(0);

    await expect.poll(() => page.getByRole('link', { name: /^sample-app/ }).textContent()).toContain('120');
    expect(await page.getByRole('list', { name: 'Users' }).locator('a').count()).toBe(4); // All users + 3
    await expect.poll(() => sessionRows(page).count()).toBe(50);
    const pager = page.locator('.pager-range');
    expect(await pager.textContent()).toBe('1–50 of 120');
    // Newest first: each row's time is not older than the next one's.
    const times = (await attributes(sessionRows(page).locator('time'), 'data-ms')).map(Number);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    await button(page, 'Next page').click();
    await expect.poll(() => pager.textContent()).toBe('51–100 of 120');
    await button(page, 'Next page').click();
    await expect.poll(() => pager.textContent()).toBe('101–120 of 120');
    expect(await button(page, 'Next page').isDisabled()).toBe(true);
    expect(await button(page, 'Last page').isDisabled()).toBe(true);
    await button(page, 'First page').click();
    await expect.poll(() => pager.textContent()).toBe('1–50 of 120');
    expect(await button(page, 'Previous page').isDisabled()).toBe(true);
    await button(page, 'Last page').click();
    await expect.poll(() => pager.textContent()).toBe('101–120 of 120');

    await sessionRows(page).first().click();
    await expect.poll(() => events(page).count()).toBe(6);
  });
});
