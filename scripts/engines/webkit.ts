/**
 * WebKit for the browser suites: WebKitGTK's MiniBrowser, driven by Debian's WebKitWebDriver
 * (package webkit2gtk-driver) through Vitest's WebdriverIO provider. Playwright cannot drive it
 * (its WebKit is its own build, which cannot be downloaded here), and MiniBrowser has no headless
 * mode, so the provider starts a private Xvfb display and a WebKitWebDriver on a free port when
 * the first test file opens, and stops both when Vitest closes it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { WebdriverBrowserProvider, webdriverio } from '@vitest/browser-webdriverio';
import { miniBrowserPath, webkitDriverPath, xvfbPath } from './index.js';

/** How long the display and the driver get to come up on a loaded machine. */
const START_TIMEOUT_MS = 30_000;

type ProviderOptions = NonNullable<Parameters<typeof webdriverio>[0]>;

interface Started {
  port: number;
  stop(): Promise<void>;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = once(child, 'exit').then(() => {});
  child.kill('SIGTERM');
  return exited;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** Starts Xvfb on the first free display (it writes the number to fd 3) and returns `:N`. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`${xvfbPath} did not start in ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    xvfb.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
    xvfb.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${xvfbPath} (Debian package xvfb): ${error.message}`));
    });
  });
  return { display, process: xvfb };
}

async function waitForDriver(port: number, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`${webkitDriverPath} exited with ${driver.exitCode}`);
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/status`);
      if (answer.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${webkitDriverPath} did not answer on port ${port} in ${START_TIMEOUT_MS} ms`);
}

async function startDriver(): Promise<Started> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(webkitDriverPath, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: 'ignore',
  });
  const stopAll = async () => {
    await stop(driver);
    await stop(xvfb.process);
  };
  // Neither may outlive the test run, however it ends.
  const onExit = () => {
    driver.kill('SIGKILL');
    xvfb.process.kill('SIGKILL');
  };
  process.once('exit', onExit);
  try {
    await new Promise<void>((resolve, reject) => {
      driver.once('error', (error) =>
        reject(new Error(`cannot start ${webkitDriverPath} (Debian package webkit2gtk-driver): ${error.message}`)),
      );
      driver.once('spawn', () => resolve());
    });
    await waitForDriver(port, driver);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    port,
    stop: async () => {
      process.off('exit', onExit);
      await stopAll();
    },
  };
}

/** MiniBrowser's WebDriver capabilities; `--automation` is what lets WebKitWebDriver control it. */
function capabilities(): WebdriverIO.Capabilities {
  return {
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
    // WebdriverIO would ask for WebDriver BiDi (`webSocketUrl`), which WebKitWebDriver refuses to match.
    'wdio:enforceWebDriverClassic': true,
  } as WebdriverIO.Capabilities;
}

/**
 * The parts of the WebdriverIO provider (private in its typings, 4.1.11 pinned exactly) this one
 * replaces: where it connects, the capabilities it asks for, and opening and closing.
 */
interface ProviderInternals {
  browser: unknown;
  options: ProviderOptions;
  buildCapabilities(): WebdriverIO.Capabilities;
  openBrowser(): Promise<unknown>;
  close(): Promise<void>;
}

/** The Vitest browser provider for the `webkit` instance (vite.config.ts). */
export function webkitgtk(options: ProviderOptions = {}): ReturnType<typeof webdriverio> {
  return {
    ...webdriverio(options),
    supportedBrowser: ['webkit'],
    providerFactory: (project) => {
      const provider = new WebdriverBrowserProvider(project, options);
      const own = provider as unknown as ProviderInternals;
      const openBrowser = own.openBrowser.bind(provider);
      const close = own.close.bind(provider);
      let driver: Promise<Started> | undefined;
      // WebKitGTK has its own browser name and options, and no headless flag to add.
      own.buildCapabilities = capabilities;
      own.openBrowser = async () => {
        if (!own.browser) {
          driver ??= startDriver();
          const { port } = await driver;
          own.options = { ...own.options, hostname: '127.0.0.1', port, path: '/' };
        }
        return openBrowser();
      };
      own.close = async () => {
        try {
          await close();
        } finally {
          const started = driver;
          driver = undefined;
          if (started) await (await started.catch(() => undefined))?.stop();
        }
      };
      return provider;
    },
  } as ReturnType<typeof webdriverio>;
}
