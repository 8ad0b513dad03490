/**
 * Worker start-up, A/B: builds of the store's worker folder (a `dist/worker/` copied aside per
 * version) started in turn in one Chromium page, interleaved so a burst of load from elsewhere
 * slows every contender alike. Each worker has a module map of its own, so each start loads and
 * runs its modules again, from the HTTP cache (revalidated, see serve.ts; V8's code cache once warm):
 * a returning visit.
 *
 *   npm run build:lib && cp -r dist/worker /tmp/after   # and the same on the other version
 *   npx tsx bench/worker-start/run.ts before=/tmp/before after=/tmp/after --reps 40
 *
 * Reports, per folder, the median time from `new Worker` to the worker's first answer (hello)
 * and to the first read answered, an empty module worker's start as the floor, and each
 * folder's per-repetition ratios (median) to the first one's, for both. `--gap ms` waits that long
 * between the first answer and the read, as an app busy with its own start-up does (the read's
 * figure includes the gap). `--cold ms` waits that long before each start, so the browser has
 * released the database files and the open reads them from disk again (a visit after a while),
 * and `--fill events` first writes that many events (400 characters each) into each database.
 * The page's client is this repo's dist/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { median } from '../stats.js';
import { importMapScript, serve } from './serve.js';

const args = process.argv.slice(2);
const repsAt = args.indexOf('--reps');
const reps = repsAt >= 0 ? Number(args.splice(repsAt, 2)[1]) : 40;
const option = (name: string): number => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : 0;
};
const gap = option('--gap');
const cold = option('--cold');
const fill = option('--fill');
const folders = args.map((arg) => {
  const [name, dir] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [path.basename(arg), arg];
  return { name, dir: path.resolve(dir) };
});
if (folders.length === 0 || !Number.isInteger(reps) || reps < 1 || ![gap, cold, fill].every((n) => n >= 0)) {
  throw new Error(
    'usage: tsx bench/worker-start/run.ts [name=]dir [[name=]dir …] [--reps N] [--gap ms] [--cold ms] [--fill events]',
  );
}

const page = `<!doctype html>${importMapScript}
<script type="module">
import { openSessionStore } from 'idb-adk-sessions';
window.start = async (url, dbName, gap) => {
  const t0 = performance.now();
  const store = openSessionStore({ dbName, mode: 'dedicated', worker: url });
  await store.ready;
  const ready = performance.now() - t0;
  if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
  await store.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
  const read = performance.now() - t0;
  await store.close();
  return { ready, read };
};
window.fill = async (url, dbName, events) => {
  const store = openSessionStore({ dbName, mode: 'dedicated', worker: url });
  const session = await store.getOrCreateSession({ appName: 'a', userId: 'u', sessionId: 'filler' });
  for (let n = 0; n < events; n += 100) {
    await store.appendEvents({ session, events: Array.from({ length: 100 }, (_, i) => ({
      id: \`e\${n + i}\`, timestamp: n + i, author: 'user', content: { parts: [{ text: 'x'.repeat(400) }] },
    })) });
  }
  await store.close();
};
window.floor = (url) => new Promise((resolve) => {
  const t0 = performance.now();
  const worker = new Worker(url, { type: 'module' });
  worker.onmessage = () => { resolve(performance.now() - t0); worker.terminate(); };
});
window.loaded = true;
</script>`;

const server = await serve(page, Object.fromEntries(folders.map((f, i) => [`/w${i}/`, f.dir])));
const origin = server.origin;
// --cold needs the database on disk, as a returning visitor's is: a persistent profile, not an in-memory one.
const profileDir = await mkdtemp(path.join(tmpdir(), 'worker-start-'));
const browser = await chromium.launchPersistentContext(profileDir, {
  executablePath: chromiumPath,
  args: chromiumArgs,
});

declare global {
  interface Window {
    start(url: string, dbName: string, gap: number): Promise<{ ready: number; read: number }>;
    floor(url: string): Promise<number>;
    fill(url: string, dbName: string, events: number): Promise<void>;
  }
}

try {
  const tab = await browser.newPage();
  await tab.goto(origin);
  await tab.waitForFunction(() => (window as unknown as { loaded?: boolean }).loaded === true);
  if (fill > 0) {
    for (const i of folders.keys()) {
      await tab.evaluate(([url, db, n]) => window.fill(url, db, n), [`/w${i}/store.js`, `start-${i}`, fill] as const);
    }
  }
  const warmUp = 3;
  const floor: number[] = [];
  const ready = folders.map(() => [] as number[]);
  const read = folders.map(() => [] as number[]);
  for (let rep = 0; rep < reps + warmUp; rep++) {
    const order = folders.map((_, i) => (i + rep) % folders.length);
    const empty = await tab.evaluate((url) => window.floor(url), '/empty.js');
    if (rep >= warmUp) floor.push(empty);
    for (const i of order) {
      // With no connection open, the browser releases the database files after a grace period.
      if (cold > 0) await new Promise((resolve) => setTimeout(resolve, cold));
      const r = await tab.evaluate(([url, db, wait]) => window.start(url, db, wait), [
        `/w${i}/store.js`,
        `start-${i}`,
        gap,
      ] as const);
      if (rep < warmUp) continue;
      ready[i]?.push(r.ready);
      read[i]?.push(r.read);
    }
  }
  const ms = (x: number): string => `${x.toFixed(1)} ms`;
  console.log(`${reps} repetitions after ${warmUp} warm-ups; an empty module worker answers in ${ms(median(floor))}`);
  const ratio = (xs: number[][], i: number): string =>
    median((xs[i] ?? []).map((x, rep) => x / (xs[0]?.[rep] ?? Number.NaN))).toFixed(2);
  folders.forEach((f, i) => {
    console.log(
      `${f.name}: first answer ${ms(median(ready[i] ?? []))}, first read ${ms(median(read[i] ?? []))}` +
        (i > 0 ? `; per repetition, ${ratio(ready, i)}x and ${ratio(read, i)}x ${folders[0]?.name}'s` : ''),
    );
  });
} finally {
  await browser.close();
  server.close();
  await rm(profileDir, { recursive: true, force: true, maxRetries: 5 });
}
