/** The engines' names alone, for code that must not load Playwright to know them (bench options). */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
