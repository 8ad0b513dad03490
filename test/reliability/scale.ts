/**
 * How big the reliability runs are. CI runs the small sizes with a fixed seed;
 * `RELIABILITY_LONG=1` runs the full sizes (with a fresh random seed unless
 * `RELIABILITY_SEED` is set, so repeated long runs explore new cases and any
 * failure prints the seed that replays it).
 */

export interface ReliabilityEnv {
  long: boolean;
  /** `RELIABILITY_SEED`, when set. */
  seed?: number | undefined;
}

/** The seed CI always uses, so a red CI run replays exactly. */
export const CI_SEED = 20_250_601;

export interface ReliabilityScale {
  long: boolean;
  seed: number;
  /** Model-based runs: property runs x commands per run, per backend. */
  modelRuns: number;
  modelCommands: number;
  browserModelRuns: number;
  /** Isolation property runs. */
  isolationRuns: number;
  /** Bad-input fuzzing: generated malformed requests per channel. */
  fuzzInputs: number;
  /** Crash trials (worker terminated mid-stream) and appends issued per trial. */
  crashTrials: number;
  crashAppends: number;
  /** Page-close trials (a second page closed mid-stream) and appends per stream. */
  pageCloseTrials: number;
  pageCloseAppends: number;
  /** Streamed replies whose tab is closed at a random moment. */
  draftCloseTrials: number;
  /** Load: tabs x writers x events per writer. */
  loadTabs: number;
  loadWriters: number;
  loadEvents: number;
  /** The same load through Playwright pages instead of workers in one page. */
  pageLoadEvents: number;
  /** Per-test timeout for the big tests: a hang still fails, a slow machine does not. */
  timeoutMs: number;
}

export function reliabilityScale(env: ReliabilityEnv): ReliabilityScale {
  const seed = env.seed ?? (env.long ? Math.floor(Math.random() * 2 ** 31) : CI_SEED);
  if (env.long) {
    return {
      long: true,
      seed,
      modelRuns: 300,
      modelCommands: 80,
      browserModelRuns: 40,
      isolationRuns: 300,
      fuzzInputs: 20_000,
      crashTrials: 200,
      crashAppends: 120,
      pageCloseTrials: 40,
      pageCloseAppends: 400,
      draftCloseTrials: 50,
      loadTabs: 4,
      loadWriters: 20,
      loadEvents: 200,
      pageLoadEvents: 200,
      timeoutMs: 3_600_000,
    };
  }
  return {
    long: false,
    seed,
    modelRuns: 40,
    modelCommands: 40,
    browserModelRuns: 6,
    isolationRuns: 30,
    fuzzInputs: 2_000,
    crashTrials: 25,
    crashAppends: 60,
    pageCloseTrials: 6,
    pageCloseAppends: 200,
    draftCloseTrials: 8,
    loadTabs: 4,
    loadWriters: 20,
    loadEvents: 20,
    pageLoadEvents: 10,
    timeoutMs: 600_000,
  };
}

/** The environment as Node sees it. */
export function nodeEnv(): ReliabilityEnv {
  const seed = process.env.RELIABILITY_SEED;
  return {
    long: process.env.RELIABILITY_LONG === '1',
    seed: seed === undefined || seed === '' ? undefined : Number(seed),
  };
}

/** One line per run, in a fixed shape, so the figures in docs/reliability.md can be collected from the logs. */
export function report(name: string, figures: Record<string, number | string | boolean>): void {
  console.log(`[reliability] ${name} ${JSON.stringify(figures)}`);
}
