/**
 * The demo, built and served as it ships: an agent app (its chat with the demo
 * agent, sample data, storage) with the package's inspector mounted beside it,
 * in a real browser. A session's life (create, chat, inspect its events, the
 * state each event changed and every scope's state, delete), keyboard use, and
 * sample data.
 */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../demo/format.js';
import {
  appStatus,
  button,
  chat,
  conversation,
  createSession,
  demoTabs,
  eventCount,
  events,
  generateSampleData,
  inspector,
  type OpenedPage,
  picker,
  sessionOption,
  sessionTitle,
  stateRows,
  testedEngine,
  texts,
} from './helpers.js';

const tabs = demoTabs();
const fresh = (): Promise<OpenedPage> => tabs.open();

/** The inspector's Details column (the selected event, or search results). */
const details = (page: OpenedPage['page']) => inspector(page).getByRole('region', { name: 'Details' });

/** The selected event's "State before and after" rows as `{key: [before, after]}`. */
async function diffRows(page: OpenedPage['page']): Promise<Record<string, string[]>> {
  const table = details(page).getByRole('table', { name: 'State before and after' });
  const out: Record<string, string[]> = {};
  for (const row of await table.locator('tbody tr').all()) {
    out[(await row.locator('th').textContent()) ?? ''] = await texts(row.locator('td'));
  }
  return out;
}

describe('the demo app and its inspector', () => {
  it('starts empty and says what to do', async () => {
    const { page } = await fresh();
    await expect.poll(() => texts(picker(page, 'App').locator('option'))).toEqual(['(no apps)']);
    expect(await details(page).textContent()).toContain('This store holds no sessions yet.');
    const chatPane = page.getByRole('region', { name: 'Chat', exact: true });
    expect(await chatPane.textContent()).toContain('No conversation open');
    expect(await chatPane.textContent()).toContain('New session starts a conversation');
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
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('ada', 'first-chat'));
    expect(await picker(page, 'Session').locator('option').count()).toBe(1);
    expect(await texts(picker(page, 'App').locator('option'))).toEqual(['demo-app']);

    // After creation the message box has the focus: typing and Enter sends.
    await page.keyboard.type('my name is Ada');
    await page.keyboard.press('Enter');
    await expect.poll(() => eventCount(page)).toBe(2);
    await chat(page, 'add 2 and 3', 4); // user, function call, function response, reply
    await chat(page, 'hello there', 2);

    const shown = await texts(events(page));
    expect(shown[0]).toContain('my name is Ada');
    expect(shown[1]).toContain('Nice to meet you, Ada');
    // The tool call with its arguments, and its result.
    expect(shown[3]).toMatch(/call add\(\{"a":2,"b":3\}\)/);
    expect(shown[4]).toMatch(/result add/);
    await events(page).nth(4).click();
    expect(await details(page).textContent()).toMatch(/result: 5/);
    expect(shown[5]).toContain('2 + 3 = 5');
    expect(shown[7]).toContain('Hello, Ada! You said "hello there"');
    // The chat shows the conversation as its user sees it: what was said, not the tool traffic.
    expect(await texts(conversation(page).locator('li.msg .part-text'))).toEqual([
      'my name is Ada',
      expect.stringContaining('Nice to meet you, Ada'),
      'add 2 and 3',
      expect.stringContaining('2 + 3 = 5'),
      'hello there',
      expect.stringContaining('Hello, Ada! You said "hello there"'),
    ]);

    // The state each event changed, before and after, with the scope in the key.
    await events(page).nth(1).click();
    const changed = await diffRows(page);
    expect(changed).toEqual({
      'app:message_count': [expect.anything(), '1'],
      step: [expect.anything(), '1'],
      last_intent: [expect.anything(), '"name"'],
      'user:name': [expect.anything(), '"Ada"'],
    });
    // temp: keys were used within the turn and never stored: in no change and no state.
    expect(Object.keys(changed).some((k) => k.startsWith('temp'))).toBe(false);
    // Time travel: after that first reply, each scope as it was then.
    expect((await stateRows(page, 'App')).message_count?.[0]).toBe('1');
    expect((await stateRows(page, 'Session')).step?.[0]).toBe('1');

    // After the last event: the state now.
    await events(page).last().click();
    const app = await stateRows(page, 'App');
    const user = await stateRows(page, 'User');
    const session = await stateRows(page, 'Session');
    expect(app.message_count?.[0]).toBe('3');
    expect(user.name?.[0]).toBe('"Ada"');
    expect(session.step?.[0]).toBe('3');
    expect(session.last_intent?.[0]).toBe('"chat"');
    expect(Object.keys(session).some((k) => k.startsWith('temp'))).toBe(false);
    // For each key, the event that last set it: user:name was set by the first reply.
    expect(user.name?.[1]).toBe('set by #2');

    // A second session of the same user sees user:name; a new user does not.
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'second-chat' });
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('ada', 'second-chat'));
    await expect.poll(async () => (await stateRows(page, 'User')).name?.[0]).toBe('"Ada"');
    expect((await stateRows(page, 'App')).message_count?.[0]).toBe('3');
    await createSession(page, { app: 'demo-app', user: 'bob', id: 'bobs-chat' });
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('bob', 'bobs-chat'));
    expect(await stateRows(page, 'User')).toEqual({});
    await chat(page, 'hi', 2);
    await expect.poll(async () => (await stateRows(page, 'App')).message_count?.[0]).toBe('4');
    expect(await events(page).nth(1).textContent()).toContain('message 4 to "demo-app"');
  });

  it('deletes a session after confirmation, keeping app and user state', async () => {
    const { page } = await fresh();
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'keep-me' });
    await createSession(page, { app: 'demo-app', user: 'ada', id: 'delete-me' });
    await chat(page, 'my name is Ada', 2);

    // The first press only asks; leaving the button takes the question back, and nothing happens.
    await button(inspector(page), 'Delete session').click();
    await button(inspector(page), 'Confirm delete').waitFor();
    await page.keyboard.press('Tab');
    await button(inspector(page), 'Delete session').waitFor();
    expect(await picker(page, 'Session').inputValue()).toBe(sessionOption('ada', 'delete-me'));
    expect(await picker(page, 'Session').locator('option').count()).toBe(2);

    await button(inspector(page), 'Delete session').click();
    await button(inspector(page), 'Confirm delete').click();
    // The inspector moves to the session left; the app's chat says its session is gone.
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('ada', 'keep-me'));
    expect(await texts(picker(page, 'Session').locator('option'))).toEqual([expect.stringContaining('keep-me')]);
    await expect
      .poll(() => page.getByRole('region', { name: 'Chat', exact: true }).textContent())
      .toContain('Session deleted');

    // The deleted session's user state stays with the user.
    await expect.poll(async () => (await stateRows(page, 'User')).name?.[0]).toBe('"Ada"');

    // Its URL now says it is gone.
    await page.reload();
    await page.locator('html[data-ready="true"]').waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Chat', exact: true }).textContent())
      .toContain('No such session');
  });

  it('is operable with the keyboard alone', async () => {
    const { page } = await fresh();
    // Tab reaches New session first from the top of the page; Enter opens its dialog with focus inside.
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
    // The inspector's session picker is a native select: the arrow keys move to the next session.
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('u1', 's-2'));
    await picker(page, 'Session').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => picker(page, 'Session').inputValue()).toBe(sessionOption('u1', 's-1'));
  });

  it('generates sample data with a progress bar, and the inspector lists it', async () => {
    const { page } = await fresh();
    await generateSampleData(page, { sessions: 120, eventsPerSession: 6, users: 3 });
    // The progress bar is visible while it runs, and gone when done.
    await page.getByRole('progressbar', { name: 'Generate sample data progress' }).waitFor();
    await expect
      .poll(() => appStatus(page).textContent(), { timeout: 30_000 })
      .toMatch(/Generated 120 sessions and 720 events/);
    expect(await page.getByRole('progressbar').count()).toBe(0);

    await expect.poll(() => picker(page, 'App').inputValue()).toBe('sample-app');
    await expect.poll(() => picker(page, 'User').locator('option').count()).toBe(4); // All users + 3
    // The newest 100 sessions are listed, the other 20 on demand.
    const sessions = picker(page, 'Session').locator('option');
    await expect.poll(() => sessions.count()).toBe(101);
    expect(await sessions.last().textContent()).toBe('20 older: list 20 more…');
    await picker(page, 'Session').selectOption('more');
    await expect.poll(() => sessions.count()).toBe(120);
    // The newest session is shown, with its events.
    await expect.poll(() => eventCount(page)).toBe(6);
  });
});
