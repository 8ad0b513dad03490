/** The engines' names alone, for code that must not load Playwright to know them (bench options). */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
/** Those Playwright launches (the others run the browser suites only): the bench and the e2e walk run there. */
export const PLAYWRIGHT_ENGINE_NAMES = ['chromium', 'firefox'] as const satisfies readonly EngineName[];
export type PlaywrightEngineName = (typeof PLAYWRIGHT_ENGINE_NAMES)[number];
