/**
 * Server-side browser commands for the reliability suite (registered in
 * vite.config.ts). They run in Node with Playwright's handles, so a test in the
 * page can open a second page of the same browser context (another tab of the
 * same origin), open a page in a separate on-disk profile (where quotas are
 * enforced: the test context keeps IndexedDB in memory), drive that page,
 * speak the Chrome DevTools protocol to it, and close it mid-stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, LaunchOptions, Page } from 'playwright';
import type { BrowserCommand } from 'vitest/node';
import { nodeEnv, type ReliabilityEnv } from '../../reliability/scale.js';

/** Where a remote page runs: a new tab of the test's own context, or a fresh on-disk profile. */
export type RemoteProfile = 'test-context' | 'on-disk';

interface Remote {
  page: Page;
  /** Set when the page has its own browser (on-disk profile): closed with it. */
  own?: { context: BrowserContext; dir: string };
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

const remoteOpen: BrowserCommand<[RemoteProfile]> = async (ctx, profile) => {
  const origin = new URL(ctx.page.url()).origin;
  let page: Page;
  let own: Remote['own'];
  if (profile === 'on-disk') {
    const dir = mkdtempSync(join(tmpdir(), 'idb-adk-reliability-'));
    // The same engine, executable and flags vitest launched its browser with (vite.config.ts).
    const launch = (ctx.provider as unknown as { options?: { launchOptions?: LaunchOptions } }).options?.launchOptions;
    const browserType = ctx.context.browser()?.browserType();
    if (!launch || !browserType) throw new Error('the playwright provider exposes no launch options');
    const context = await browserType.launchPersistentContext(dir, { ...launch, headless: true });
    own = { context, dir };
    page = context.pages()[0] ?? (await context.newPage());
  } else {
    page = await ctx.context.newPage();
  }
  const id = `remote-${counter++}`;
  const r: Remote = { page, acks: [], errors: [], ...(own ? { own } : {}) };
  remotes.set(id, r);
  await page.exposeFunction('__reliabilityAck', (ack: string) => {
    r.acks.push(ack);
  });
  page.on('pageerror', (error) => r.errors.push(error.message));
  await page.goto(origin + FIXTURE);
  await page.waitForFunction(() => (globalThis as { remote?: { ready?: boolean } }).remote?.ready === true);
  return id;
};

/** Calls `globalThis.remote[name](...args)` in the page and returns its (JSON-able) result. */
const remoteCall: BrowserCommand<[string, string, unknown[]]> = (_ctx, id, name, args) =>
  remote(id).page.evaluate(
    ([n, a]) => (globalThis as unknown as { remote: Record<string, (...x: unknown[]) => unknown> }).remote[n]?.(...a),
    [name, args] as const,
  );

const remoteCdp: BrowserCommand<[string, string, Record<string, unknown>]> = async (_ctx, id, method, params) => {
  const r = remote(id);
  r.cdp ??= await r.page.context().newCDPSession(r.page);
  return r.cdp.send(method as 'Storage.getUsageAndQuota', params as { origin: string });
};

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
  remoteCdp,
  remoteCloseAfter,
  remoteClose,
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    reliabilityEnv(): Promise<ReliabilityEnv>;
    remoteOpen(profile: RemoteProfile): Promise<string>;
    remoteCall<T = unknown>(id: string, name: string, args: unknown[]): Promise<T>;
    remoteCdp<T = unknown>(id: string, method: string, params: Record<string, unknown>): Promise<T>;
    remoteCloseAfter(
      id: string,
      options: { afterAcks: number; extraMs: number; timeoutMs: number },
    ): Promise<{ acks: string[]; errors: string[] }>;
    remoteClose(id: string): Promise<{ acks: string[]; errors: string[] }>;
  }
}
