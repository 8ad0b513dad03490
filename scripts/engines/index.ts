/**
 * The browser engines the suites run in, in one place: vite.config.ts makes a browser instance and
 * an e2e project of each, and every script that launches a browser itself (reliability commands,
 * e2e helpers, bench) asks here for the engine's launch options. `TEST_ENGINES=firefox` (a
 * comma-separated list) narrows a run; the default is every engine.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BrowserType, chromium, firefox, type LaunchOptions } from 'playwright';

import { ENGINE_NAMES, type EngineName } from './names.js';

export { ENGINE_NAMES, type EngineName };

interface EngineBase {
  name: EngineName;
  /** The system browser this engine runs on, and the Debian package that installs it. */
  executable: string;
  debianPackage: string;
}

/** An engine Playwright launches: every suite, the e2e walk where `e2e`, the bench. */
export interface PlaywrightEngine extends EngineBase {
  driver: 'playwright';
  browserType: BrowserType;
  launchOptions: LaunchOptions;
  /** Whether the demo's e2e walk (test/e2e) runs in it; see each engine for why not. */
  e2e: boolean;
}

/**
 * An engine driven over classic WebDriver (scripts/engines/webkit.ts): the browser suites only.
 * The e2e walk, the bench and the reliability commands that open more pages are Playwright's.
 */
export interface WebDriverEngine extends EngineBase {
  driver: 'webdriver';
  e2e: false;
}

export type Engine = PlaywrightEngine | WebDriverEngine;

/** Flags for the system Chromium on a machine whose network reaches only package registries. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** WebKit: WebKitGTK's MiniBrowser, its WebDriver, and the X server it needs to run without a screen. */
export const miniBrowserPath =
  process.env.WEBKIT_BROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const xvfbPath = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

export const engines = {
  chromium: {
    driver: 'playwright',
    name: 'chromium',
    executable: chromiumPath,
    debianPackage: 'chromium',
    browserType: chromium,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    e2e: true,
  },
  firefox: {
    driver: 'playwright',
    name: 'firefox',
    executable: firefoxPath,
    debianPackage: 'firefox-esr',
    browserType: firefox,
    // Playwright drives Debian's Firefox over WebDriver BiDi (its moz-firefox channel) through a
    // launcher that stands in for the one command ESR lacks (see firefox-bidi.mjs).
    launchOptions: {
      channel: 'moz-firefox',
      executablePath: fileURLToPath(new URL('./firefox-bidi.mjs', import.meta.url)),
    },
    // The walk reads many elements one by one and skips what Playwright's BiDi client cannot do in
    // ESR yet (downloads, a second file chooser, media emulation): see test/e2e/helpers.ts.
    e2e: true,
  },
  webkit: {
    driver: 'webdriver',
    name: 'webkit',
    executable: webkitDriverPath,
    // The driver brings WebKitGTK (and MiniBrowser) with it; Xvfb is a display for it.
    debianPackage: 'webkit2gtk-driver xvfb',
    // Playwright drives only its own WebKit build (not downloadable here), never WebKitGTK's
    // MiniBrowser, and the walk is written against Playwright's API.
    e2e: false,
  },
} as const satisfies Record<EngineName, Engine>;

function isEngineName(name: string): name is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(name);
}

/** The engines this run tests, from `TEST_ENGINES` (comma-separated), else all of them. */
export function testedEngines(env: string | undefined = process.env.TEST_ENGINES): Engine[] {
  const names = (env ?? ENGINE_NAMES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!isEngineName(name))
      throw new Error(`TEST_ENGINES: unknown engine "${name}" (known: ${ENGINE_NAMES.join(', ')})`);
  }
  return names.filter(isEngineName).map((name) => engines[name]);
}

/**
 * The Playwright engine named by `name` (a vitest browser name or `E2E_ENGINE`), Chromium when
 * none is; an engine Playwright cannot launch is refused by name.
 */
export function engine(name: string | undefined = process.env.E2E_ENGINE): PlaywrightEngine {
  if (name === undefined || name === '') return engines.chromium;
  if (!isEngineName(name)) throw new Error(`unknown engine "${name}" (known: ${ENGINE_NAMES.join(', ')})`);
  const found: Engine = engines[name];
  if (found.driver !== 'playwright')
    throw new Error(`${name} is driven over WebDriver only: Playwright cannot launch it`);
  return found;
}

/** The engines the e2e walk runs in this run. */
export function e2eEngines(): PlaywrightEngine[] {
  return testedEngines().filter((e): e is PlaywrightEngine => e.driver === 'playwright' && e.e2e);
}

/** Engines whose browser is missing on this machine. */
export function missingEngines(list: Engine[] = testedEngines()): Engine[] {
  return list.filter((e) => !existsSync(e.executable));
}
