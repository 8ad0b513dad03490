/**
 * The workloads, run in the page against any contender. Timed sections hold
 * only the contender's calls: records are generated before the clock starts,
 * and reads are checked against what was written after it stops.
 */
import type { Event } from '../src/index.js';
import type { Contender, ListedRow, SessionAddress, SessionData } from './contender.js';
import { listingState, makeEvents, stateAfter } from './events.js';
import type { Sizes, WorkloadId } from './plan.js';
import { median, percentile } from './stats.js';

export const FIXTURE_APP = 'fixture';
export const USER = 'u';
/** Fixture sessions: address and session number (the generator's seed). */
export const FIXTURES = {
  point: { sessionNo: 1, events: (s: Sizes) => s.pointReadEvents },
  full: { sessionNo: 2, events: (s: Sizes) => s.fullReadEvents },
  recentSmall: { sessionNo: 3, events: (s: Sizes) => s.recentSmallEvents },
  recentLarge: { sessionNo: 4, events: (s: Sizes) => s.recentLargeEvents },
  cold: { sessionNo: 5, events: (s: Sizes) => s.coldStartEvents },
} as const;
export type FixtureName = keyof typeof FIXTURES;
export const LISTING_SMALL_APP = 'list-small';
export const LISTING_LARGE_APP = 'list-large';
/** First timestamp of every fixture session: the checks recompute its state from it. */
export const T0 = 1_700_000_000_000;

export const fixtureAddress = (name: FixtureName): SessionAddress => ({
  appName: FIXTURE_APP,
  userId: USER,
  sessionId: name,
});

/** Builds every fixture by the contender's fastest path; returns each build's time in ms. */
export async function buildFixtures(c: Contender, sizes: Sizes): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  for (const [name, f] of Object.entries(FIXTURES) as [FixtureName, (typeof FIXTURES)[FixtureName]][]) {
    const started = performance.now();
    await c.buildSession(fixtureAddress(name), f.sessionNo, f.events(sizes), T0);
    times[`session ${f.events(sizes)} events (${name})`] = performance.now() - started;
  }
  for (const [app, count] of [
    [LISTING_SMALL_APP, sizes.listingSmallSessions],
    [LISTING_LARGE_APP, sizes.listingLargeSessions],
  ] as const) {
    const started = performance.now();
    await c.buildSessions(app, USER, count, T0);
    times[`${count} sessions (${app})`] = performance.now() - started;
  }
  return times;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Throws unless `data` is exactly the last `count` of the first `total` events of the fixture, with its state. */
export function checkSession(who: string, name: FixtureName, data: SessionData, total: number, count: number): void {
  const f = FIXTURES[name];
  const expected = makeEvents(f.sessionNo, total - count, total, T0);
  const ids = data.events.map((e) => e.id).join();
  if (ids !== expected.map((e) => e.id).join()) {
    throw new Error(`${who}: ${name} returned ${data.events.length} events, not the expected ${count} in order`);
  }
  if (!sameJson(data.events.at(-1), expected.at(-1))) throw new Error(`${who}: ${name}: last event differs`);
  if (!sameJson(sortKeys(data.state), sortKeys(stateAfter(f.sessionNo, total, T0)))) {
    throw new Error(`${who}: ${name}: state differs: ${JSON.stringify(data.state)}`);
  }
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `k` awaited runs of `read`; their median. */
async function medianOf(k: number, read: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < k; i++) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return median(times);
}

export type Metrics = Record<string, number>;

export async function runWorkload(workload: WorkloadId, c: Contender, sizes: Sizes, rep: number): Promise<Metrics> {
  switch (workload) {
    case 'concurrentAppend':
    case 'concurrentAwaited': {
      const appName = `${workload}-${c.id}-${rep}`;
      const handles = await Promise.all(
        Array.from({ length: sizes.concurrentSessions }, (_, s) =>
          c.createSession({ appName, userId: USER, sessionId: `s${s}` }),
        ),
      );
      const t0 = Date.now();
      const writes = handles.map((handle, s) => ({ handle, events: makeEvents(s, 0, sizes.concurrentEvents, t0) }));
      const started = performance.now();
      if (c.writeAll) await c.writeAll(writes);
      else if (workload === 'concurrentAppend') {
        // Every append issued at once, sessions interleaved, each session's in its order.
        const appends: Promise<void>[] = [];
        for (let i = 0; i < sizes.concurrentEvents; i++) {
          for (const { handle, events } of writes) appends.push(c.append(handle, events[i] as Event));
        }
        await Promise.all(appends);
      } else {
        // As agents do: each session awaits its append before making the next.
        await Promise.all(
          writes.map(async ({ handle, events }) => {
            for (const event of events) await c.append(handle, event);
          }),
        );
      }
      return { ms: performance.now() - started };
    }
    case 'concurrentCreate': {
      const appName = `create-${c.id}-${rep}`;
      const states = Array.from({ length: sizes.concurrentCreates }, (_, i) => listingState(i));
      const started = performance.now();
      if (c.createAll) await c.createAll(appName, USER, sizes.concurrentCreates);
      else {
        await Promise.all(
          states.map((state, i) => c.createSession({ appName, userId: USER, sessionId: `s${i}` }, state)),
        );
      }
      return { ms: performance.now() - started };
    }
    case 'sequentialAppend': {
      const handle = await c.createSession({ appName: `sequential-${c.id}-${rep}`, userId: USER, sessionId: 's' });
      const events = makeEvents(0, 0, sizes.sequentialAppends, Date.now());
      const latencies: number[] = [];
      for (const event of events) {
        const started = performance.now();
        await c.append(handle, event);
        latencies.push(performance.now() - started);
      }
      return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    }
    case 'pointRead': {
      const latencies: number[] = [];
      let last: SessionData | undefined;
      for (let i = 0; i < sizes.pointReads; i++) {
        const started = performance.now();
        last = await c.getSession(fixtureAddress('point'));
        latencies.push(performance.now() - started);
      }
      checkSession(c.id, 'point', last as SessionData, sizes.pointReadEvents, sizes.pointReadEvents);
      return { p50: percentile(latencies, 50) };
    }
    case 'fullRead':
      return readFigure(c, 'full', sizes.fullReadEvents, undefined, sizes.fullReadRepeats);
    case 'recentWindow1k':
      return readFigure(c, 'recentSmall', sizes.recentSmallEvents, sizes.recentWindow, sizes.recentRepeats);
    case 'recentWindow100k':
      return readFigure(c, 'recentLarge', sizes.recentLargeEvents, sizes.recentWindow, sizes.recentRepeats);
    case 'listing1k':
      return listFigure(c, LISTING_SMALL_APP, sizes.listingSmallSessions, sizes);
    case 'listing10k':
      return listFigure(c, LISTING_LARGE_APP, sizes.listingLargeSessions, sizes);
    case 'coldStart':
      throw new Error('cold start runs in a fresh page: use coldStart()');
  }
}

async function readFigure(
  c: Contender,
  name: FixtureName,
  total: number,
  recent: number | undefined,
  repeats: number,
): Promise<Metrics> {
  let last: SessionData | undefined;
  const ms = await medianOf(repeats, async () => {
    last = await c.getSession(fixtureAddress(name), recent);
  });
  checkSession(c.id, name, last as SessionData, total, Math.min(total, recent ?? total));
  return { ms };
}

async function listFigure(c: Contender, appName: string, total: number, sizes: Sizes): Promise<Metrics> {
  let rows: ListedRow[] = [];
  const ms = await medianOf(sizes.listingRepeats, async () => {
    rows = await c.listRecent(appName, USER, sizes.listingLimit);
  });
  const ids = rows.map((r) => r.id);
  const newest = Array.from({ length: sizes.listingLimit }, (_, i) => `s${total - 1 - i}`);
  if (ids.join() !== newest.join()) {
    throw new Error(`${c.id}: listing returned ${ids.slice(0, 5).join()}..., not the newest sessions first`);
  }
  if (!sameJson(sortKeys(rows[0]?.state ?? {}), sortKeys(listingState(total - 1)))) {
    throw new Error(`${c.id}: listed session without its state`);
  }
  return { ms };
}
