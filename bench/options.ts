/** The bench driver's command line, and what a run takes part in. Pure, so it is unit-tested. */
import { PLAYWRIGHT_ENGINE_NAMES, type PlaywrightEngineName } from '../scripts/engines/names.js';
import type { ContenderId } from './contender.js';
import { CONTENDERS, OPT_IN, WORKLOADS, type WorkloadId } from './plan.js';

export interface Options {
  quick: boolean;
  reps: number | undefined;
  out: string | undefined;
  only: readonly WorkloadId[] | undefined;
  contenders: readonly ContenderId[] | undefined;
  /** The engine the bench page runs in (scripts/engines): one Playwright launches. */
  browser: PlaywrightEngineName;
  /** Runs the pairs of `OPT_IN` too. */
  dexieWrites: boolean;
}

/** A comma-separated list of names from `known`; throws on an empty list or an unknown name. */
function listArg<T extends string>(flag: string, value: string | undefined, known: readonly T[]): T[] {
  const names = (value ?? '').split(',').filter((n) => n !== '');
  const unknown = names.filter((n) => !(known as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`${flag} needs names among ${known.join(', ')}; got ${unknown.join(', ') || 'none'}`);
  }
  return names as T[];
}

export function parseArgs(argv: string[]): Options {
  const options: Options = {
    quick: false,
    reps: undefined,
    out: undefined,
    only: undefined,
    contenders: undefined,
    browser: 'chromium',
    dexieWrites: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--dexie-writes') options.dexieWrites = true;
    else if (arg === '--reps') options.reps = Number(argv[++i]);
    else if (arg === '--out') options.out = argv[++i];
    else if (arg === '--only')
      options.only = listArg(
        arg,
        argv[++i],
        WORKLOADS.map((w) => w.id),
      );
    else if (arg === '--contenders') options.contenders = listArg(arg, argv[++i], CONTENDERS);
    else if (arg === '--browser') {
      const [name, ...more] = listArg(arg, argv[++i], PLAYWRIGHT_ENGINE_NAMES);
      if (!name || more.length > 0) throw new Error('--browser takes one engine');
      options.browser = name;
    } else
      throw new Error(
        `unknown argument ${arg}; use --quick, --reps N, --only w1,w2, --contenders c1,c2, --browser ${PLAYWRIGHT_ENGINE_NAMES.join('|')}, --dexie-writes, --out DIR`,
      );
  }
  if (options.reps !== undefined && !(Number.isInteger(options.reps) && options.reps > 0)) {
    throw new Error('--reps needs a positive integer');
  }
  return options;
}

/** The write workloads make their own sessions; every other workload reads the fixtures. */
const WRITE_WORKLOADS: readonly WorkloadId[] = [
  'concurrentAppend',
  'concurrentAwaited',
  'concurrentCreate',
  'sequentialAppend',
];

export interface Selection {
  /** Whether the run measures `workload`. */
  chosen(workload: WorkloadId): boolean;
  /** The contenders of `list` that take part (in `workload`, when given), in their order. */
  taking(list: readonly ContenderId[], workload?: WorkloadId): ContenderId[];
  /** Whether the run leaves out the opt-in pair of `workload` and `contender` (`OPT_IN`). */
  optedOut(workload: WorkloadId, contender: ContenderId): boolean;
  /** Whether the read fixtures must be built (not for a run of write workloads only). */
  needsFixtures: boolean;
  /** A run narrowed by `--only` or `--contenders`: it reports only what it measured. */
  targeted: boolean;
}

export function selection(options: Options): Selection {
  const { only, contenders, dexieWrites } = options;
  const optedOut = (workload: WorkloadId, contender: ContenderId): boolean =>
    !dexieWrites && !contenders?.includes(contender) && OPT_IN[contender]?.includes(workload) === true;
  return {
    chosen: (workload) => only === undefined || only.includes(workload),
    taking: (list, workload) =>
      list.filter((c) => (contenders === undefined || contenders.includes(c)) && !(workload && optedOut(workload, c))),
    optedOut,
    needsFixtures: only === undefined || only.some((w) => !WRITE_WORKLOADS.includes(w)),
    targeted: only !== undefined || contenders !== undefined,
  };
}
