/**
 * Server-side browser commands for the reliability suite (registered in
 * vite.config.ts). They run in Node with Playwright's handles, so a test in the
 * page can open a second page of the same browser context (another tab of the
 * same origin), open a page in a separate on-disk profile (where quotas are
 * enforced: Chromium's test context keeps IndexedDB in memory), give that
 * profile a small quota, drive the page, and close it mid-stream. They work in
 * every engine of scripts/engines: the quota is set the way each engine allows
 * (see remoteQuota).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, BrowserType, CDPSession, LaunchOptions, Page } from 'playwright';
import type { BrowserCommand } from 'vitest/node';
import { nodeEnv, type ReliabilityEnv } from '../../reliability/scale.js';

/** Where a remote page runs: a new tab of the test's own context, or a fresh on-disk profile. */
export type RemoteProfile = 'test-context' | 'on-disk';

interface Remote {
  page: Page;
  /** Set when the page has its own browser (on-disk profile): closed with it. */
  own?: { context: BrowserContext; dir: string; browserType: BrowserType; launch: LaunchOptions };
  cdp?: CDPSession;
  acks: string[];
  errors: string[];
}

const remotes = new Map<string, Remote>();
let counter = 0;

const FIXTURE = '/test/browser/reliability/fixtures/remote.html';

function remote(id: string): Remote {
  const r = remotes.get(id);
  if (!r) throw new Error(`no remote page ${id}`);
  return r;
}

const reliabilityEnv: BrowserCommand<[]> = (): ReliabilityEnv => nodeEnv();

async function showFixture(r: Remote, origin: string): Promise<void> {
  await r.page.exposeFunction('__reliabilityAck', (ack: string) => {
    r.acks.push(ack);
  });
  r.page.on('pageerror', (error) => r.errors.push(error.message));
  await r.page.goto(origin + FIXTURE);
  await r.page.waitForFunction(() => (globalThis as { remote?: { ready?: boolean } }).remote?.ready === true);
}

/**
 * Firefox fixes an origin group's quota at launch, from its global limit (KiB; -1, the default: from
 * the free disk space). Set either way: the profile keeps the last value it ran with.
 */
function firefoxQuotaPrefs(quotaBytes: number | null): Record<string, number> {
  return { 'dom.quotaManager.temporaryStorage.fixedLimit': quotaBytes === null ? -1 : Math.ceil(quotaBytes / 1024) };
}

async function launchOnDisk(
  own: Omit<NonNullable<Remote['own']>, 'context'>,
  quotaBytes: number | null,
): Promise<BrowserContext> {
  const quota = own.browserType.name() === 'firefox' ? { firefoxUserPrefs: firefoxQuotaPrefs(quotaBytes) } : {};
  return own.browserType.launchPersistentContext(own.dir, { ...own.launch, ...quota, headless: true });
}

async function setChromiumQuota(r: Remote, quotaBytes: number | null): Promise<void> {
  r.cdp ??= await r.page.context().newCDPSession(r.page);
  const origin = new URL(r.page.url()).origin;
  await r.cdp.send(
    'Storage.overrideQuotaForOrigin',
    quotaBytes === null ? { origin } : { origin, quotaSize: quotaBytes },
  );
}

const remoteOpen: BrowserCommand<[RemoteProfile, { quotaBytes?: number }?]> = async (ctx, profile, options = {}) => {
  if (ctx.provider.name !== 'playwright') {
    throw new Error(`remote pages are opened through Playwright; this engine runs under ${ctx.provider.name}`);
  }
  const origin = new URL(ctx.page.url()).origin;
  const quotaBytes = options.quotaBytes ?? null;
  let r: Remote;
  if (profile === 'on-disk') {
    // The same engine, executable and flags vitest launched its browser with (vite.config.ts).
    const launch = (ctx.provider as unknown as { options?: { launchOptions?: LaunchOptions } }).options?.launchOptions;
    const browserType = ctx.context.browser()?.browserType();
    if (!launch || !browserType) throw new Error('the playwright provider exposes no launch options');
    const own = { dir: mkdtempSync(join(tmpdir(), 'idb-adk-reliability-')), browserType, launch };
    const context = await launchOnDisk(own, quotaBytes);
    const page = context.pages()[0] ?? (await context.newPage());
    r = { page, acks: [], errors: [], own: { ...own, context } };
  } else {
    if (quotaBytes !== null) throw new Error('a quota needs the on-disk profile');
    r = { page: await ctx.context.newPage(), acks: [], errors: [] };
  }
  const id = `remote-${counter++}`;
  remotes.set(id, r);
  await showFixture(r, origin);
  // Chromium caches the space an origin has left for a while, so its quota is set before the page
  // opens any database: then every commit is checked against it.
  if (quotaBytes !== null && r.own?.browserType.name() === 'chromium') await setChromiumQuota(r, quotaBytes);
  return id;
};

/**
 * Gives an on-disk remote page's origin `quotaBytes` of storage (`null`: the engine's own quota).
 * Chromium changes it live (DevTools protocol); Firefox reads it only at launch, so its browser is
 * restarted on the same profile, as a user would after freeing disk space. Either way the page may
 * have been reloaded: the caller opens its stores again. Returns whether it was.
 */
const remoteQuota: BrowserCommand<[string, number | null]> = async (_ctx, id, quotaBytes) => {
  const r = remote(id);
  if (!r.own) throw new Error('a quota needs the on-disk profile');
  if (r.own.browserType.name() === 'chromium') {
    await setChromiumQuota(r, quotaBytes);
    return false;
  }
  const origin = new URL(r.page.url()).origin;
  await r.own.context.close();
  const context = await launchOnDisk(r.own, quotaBytes);
  r.own.context = context;
  r.page = context.pages()[0] ?? (await context.newPage());
  await showFixture(r, origin);
  return true;
};

/** Calls `globalThis.remote[name](...args)` in the page and returns its (JSON-able) result. */
const remoteCall: BrowserCommand<[string, string, unknown[]]> = (_ctx, id, name, args) =>
  remote(id).page.evaluate(
    ([n, a]) => (globalThis as unknown as { remote: Record<string, (...x: unknown[]) => unknown> }).remote[n]?.(...a),
    [name, args] as const,
  );

/**
 * Waits until the page has acknowledged `afterAcks` appends (or `timeoutMs`
 * passed), waits `extraMs` more, then closes the page as a user closing a tab
 * would. Returns every acknowledgement received before the page was gone.
 */
const remoteCloseAfter: BrowserCommand<[string, { afterAcks: number; extraMs: number; timeoutMs: number }]> = async (
  _ctx,
  id,
  { afterAcks, extraMs, timeoutMs },
) => {
  const r = remote(id);
  const deadline = Date.now() + timeoutMs;
  while (r.acks.length < afterAcks && Date.now() < deadline) await new Promise((done) => setTimeout(done, 1));
  if (extraMs > 0) await new Promise((done) => setTimeout(done, extraMs));
  await r.page.close();
  return closeRemote(id);
};

async function closeRemote(id: string): Promise<{ acks: string[]; errors: string[] }> {
  const r = remote(id);
  remotes.delete(id);
  if (!r.page.isClosed()) await r.page.close();
  if (r.own) {
    await r.own.context.close();
    rmSync(r.own.dir, { recursive: true, force: true });
  }
  return { acks: r.acks, errors: r.errors };
}

const remoteClose: BrowserCommand<[string]> = (_ctx, id) => closeRemote(id);

export const reliabilityCommands = {
  reliabilityEnv,
  remoteOpen,
  remoteCall,
  remoteQuota,
  remoteCloseAfter,
  remoteClose,
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    reliabilityEnv(): Promise<ReliabilityEnv>;
    remoteOpen(profile: RemoteProfile, options?: { quotaBytes?: number }): Promise<string>;
    remoteCall<T = unknown>(id: string, name: string, args: unknown[]): Promise<T>;
    remoteQuota(id: string, quotaBytes: number | null): Promise<boolean>;
    remoteCloseAfter(
      id: string,
      options: { afterAcks: number; extraMs: number; timeoutMs: number },
    ): Promise<{ acks: string[]; errors: string[] }>;
    remoteClose(id: string): Promise<{ acks: string[]; errors: string[] }>;
  }
}
