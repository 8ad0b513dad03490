/**
 * ADK's own dev UI (`adk web` of `@google/adk-devtools`) on the sync server's
 * Postgres database, in Chromium: it opens a session two devices created and
 * synced, with their events in the server's order and the state they wrote.
 * Its session list stays empty with devtools 2.0.0 (its API server answers
 * `{ sessions }`, the UI reads an array), so sessions are opened by URL. What
 * the UI writes (a message its agent answers, a deleted session) goes to ADK's
 * tables directly, not through the sync server, which finds it by comparing its
 * log with ADK's tables (at most every `RECHECK_MS`): the devices get it on a
 * round after that, the server running on.
 * Without Postgres this file fails on purpose, as postgres.test.ts does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { RECHECK_MS } from '../../../server/catch-up.js';
import { type RunningSyncServer, startSyncServer } from '../../../server/index.js';
import { chromiumArgs, chromiumPath } from '../../../vite.config.js';
import { REPLY } from '../../fixtures/adk-web/chat.js';
import { type Device, device, say, textsOf } from '../../sync/devices.js';
import { freePort, POSTGRES_MISSING, type Postgres, postgresBin, startPostgres } from '../../sync/postgres.js';

// adk web loads its agent and ADK's ORM before it answers; a loaded 2-core machine takes tens of seconds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const ALICE = { appName: 'chat', userId: 'alice' };
const authenticate = (token: string) => (token === 'alice-token' ? ALICE : undefined);

interface AdkWeb {
  url: string;
  stop(): Promise<void>;
}

/**
 * `adk web --session_service_uri <database>` on the test's agents folder, as the sync guide runs it:
 * the agent's TypeScript compiled and bundled by `adk web` itself (its default).
 */
async function startAdkWeb(databaseUrl: string): Promise<AdkWeb> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      'node_modules/.bin/adk',
      'web',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--session_service_uri',
      databaseUrl,
      'test/fixtures/adk-web',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk;
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // SIGINT: adk web then removes the folder it compiled the agent into (on SIGTERM it leaves it).
      child.kill('SIGINT');
    });
  // Ready when it lists the fixture's app: the agent loaded and ADK's tables are open.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`adk web exited (${child.exitCode}):\n${log}`);
    const apps: string[] = await fetch(`${url}/list-apps`)
      .then((r) => (r.ok ? (r.json() as Promise<string[]>) : ([] as string[])))
      .catch((): string[] => []);
    if (apps.includes('chat')) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`adk web did not list the app "chat" in time:\n${log}`);
}

/** The texts of the conversation the UI shows, in its order. */
const shownTexts = (page: Page): Promise<string[]> =>
  page.locator('p').evaluateAll((ps) => ps.map((p) => p.textContent?.trim() ?? '').filter((t) => t !== ''));

const bin = postgresBin();

if (!bin) {
  it('has Postgres installed to run ADK dev UI test against', () => {
    throw new Error(POSTGRES_MISSING);
  });
} else {
  let postgres: Postgres;
  let server: RunningSyncServer | undefined;
  let adkWeb: AdkWeb | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let a: Device;
  let b: Device;

  beforeAll(async () => {
    postgres = await startPostgres(bin);
    server = await startSyncServer({ url: postgres.url, port: 0, authenticate });
    a = device(server.url, 'alice-token');
    b = device(server.url, 'alice-token');
    // Two devices write one session in turn, and one of them a second session.
    await a.store.createSession({ ...ALICE, sessionId: 'trip', state: { plan: 'rome' } });
    await say(a.store, 'trip', 'from device A');
    await a.sync.syncNow();
    await b.sync.syncNow();
    await say(b.store, 'trip', 'from device B');
    await b.store.createSession({ ...ALICE, sessionId: 'notes' });
    await say(b.store, 'notes', 'a note');
    expect((await b.sync.syncNow()).pending).toBe(0);
    await a.sync.syncNow();
    expect(await textsOf(a.store, 'trip')).toEqual(['from device A', 'from device B']);

    [adkWeb, browser] = await Promise.all([
      startAdkWeb(postgres.url),
      chromium.launch({ executablePath: chromiumPath, args: chromiumArgs }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await adkWeb?.stop();
    await a?.close();
    await b?.close();
    await server?.close();
    postgres?.stop();
  });

  // Each open gets a page of its own: the UI navigates by itself after some actions (a deleted
  // session), and such a navigation would interrupt the next goto on a shared page.
  const open = async (sessionId: string): Promise<Page> => {
    if (!browser || !adkWeb) throw new Error('the browser or the dev UI did not start');
    await page?.close();
    const fresh = await browser.newPage();
    page = fresh;
    // The UI asks Google's servers for its fonts: no network here, and none needed.
    const local = new URL(adkWeb.url).host;
    await fresh.route('**/*', (route) =>
      new URL(route.request().url()).host === local ? route.continue() : route.abort(),
    );
    await fresh.goto(`${adkWeb.url}/dev-ui/?app=chat&userId=alice&session=${sessionId}`);
    await expect.poll(() => shownTexts(fresh), { timeout: 30_000 }).not.toEqual([]);
    return fresh;
  };

  it('opens a session two devices synced, with their events in order and its state', async () => {
    const page = await open('trip');
    expect(await shownTexts(page)).toEqual(['from device A', 'from device B']);
    await page.getByRole('tab', { name: 'State' }).click();
    const state = page.getByRole('tabpanel', { name: 'State' });
    await expect.poll(() => state.innerText()).toMatch(/plan\s*:\s*"rome"/);
    expect(await state.innerText()).toMatch(/last\s*:\s*"from device B"/);
  });

  it("lists the synced sessions through its API, while devtools 2.0.0's session selector shows none", async () => {
    const listed = (await (await fetch(`${adkWeb?.url}/apps/chat/users/alice/sessions`)).json()) as {
      sessions: { id: string }[];
    };
    expect(listed.sessions.map((s) => s.id).sort()).toEqual(['notes', 'trip']);
    const page = await open('trip');
    await page.getByRole('button', { name: 'trip', exact: true }).click();
    await page.getByText("No sessions found for user 'alice'").waitFor();
    await page.keyboard.press('Escape');
  });

  it('its writes (a message its agent answers, a deleted session) reach the devices on their next rounds, the server running on', async () => {
    // A message the fixture's agent answers with a state write, in the synced session.
    let page = await open('trip');
    await page.getByRole('textbox', { name: 'Type a message...' }).fill('from the dev UI');
    await page.keyboard.press('Enter');
    await page.getByText(REPLY).waitFor();
    // The other session, deleted through the UI's session selector.
    page = await open('notes');
    await page.getByRole('button', { name: 'notes', exact: true }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(async () => (await fetch(`${adkWeb?.url}/apps/chat/users/alice/sessions/notes`)).status)
      .toBe(404);

    // The running server compares its log with ADK's tables on a pull (at most every RECHECK_MS):
    // the devices get the UI's writes on a round after that, with no restart.
    for (const d of [a, b]) {
      await vi.waitFor(
        async () => {
          expect((await d.sync.syncNow()).pending).toBe(0);
          expect(await textsOf(d.store, 'trip')).toEqual(['from device A', 'from device B', 'from the dev UI', REPLY]);
        },
        { timeout: RECHECK_MS * 4, interval: 500 },
      );
      const trip = await d.store.getSession({ ...ALICE, sessionId: 'trip' });
      expect(trip?.state).toMatchObject({ plan: 'rome', last: 'from device B', answeredBy: 'dev-ui' });
      expect(await d.store.getSession({ ...ALICE, sessionId: 'notes' })).toBeUndefined();
    }
    // The UI shows the session as the devices hold it.
    page = await open('trip');
    expect(await shownTexts(page)).toEqual(['from device A', 'from device B', 'from the dev UI', REPLY]);
  });
}
