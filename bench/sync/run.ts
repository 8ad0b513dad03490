/**
 * `npm run bench:sync [-- --quick] [-- --storage libsql|postgres|both] [-- --processes 1,2]`: the sync
 * server as a real process, devices real stores (in-thread over fake-indexeddb: the figures are the
 * protocol's and the server's, not a browser's IndexedDB); the load's devices in processes of their
 * own (`--device-processes`, 2), the rest in this process. `--processes`: on Postgres only, each count in turn as that many server
 * processes on one database behind a round-robin balancer in this process (the balancer too for
 * one, so the counts compare); server CPU is the processes' sum. `--users`: in the load, each device
 * acts for a user of its own (one user's pushes are serialised by its lock, whatever the processes).
 *   1. initial sync: a fresh device pulls S sessions x E events (time, bytes, server CPU);
 *   2. latency: device A appends, device B (live, SSE poke then pull) has it;
 *   3. load: D devices each append to their own session and sync, K rounds.
 */
import { startBalancer } from '../../test/sync/balancer.js';
import { postgresBin, startPostgres } from '../../test/sync/postgres.js';
import { type ServerProcess, startServer, TOKENS } from '../../test/sync/server-process.js';
import { device, event } from './device.js';
import { startDeviceProcesses } from './device-processes.js';
import { rawLoad } from './raw.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const SESSIONS = Number(flag('sessions', quick ? '20' : '1000'));
const EVENTS = Number(flag('events', quick ? '20' : '100'));
const DEVICES = Number(flag('devices', '20'));
/** The load's devices run in this many processes of their own (device-processes.ts). */
const DEVICE_PROCESSES = Number(flag('device-processes', '2'));
const ROUNDS = Number(flag('rounds', quick ? '3' : '10'));
/** Load: each device acts for a user of its own (its own app), so no user's lock serialises them all. */
const spread = args.includes('--users');
const processes = args.includes('--processes') ? flag('processes', '1').split(',').map(Number) : undefined;
const storage = processes ? 'postgres' : flag('storage', 'both');

async function seed(server: ServerProcess, appName: string): Promise<void> {
  const base = `${server.url}/v1/apps/${appName}/users/model`;
  const headers = { authorization: `Bearer ${TOKENS.model}` };
  const text = 'a message of about the length people write in a chat, give or take a few words here and there.';
  let next = 0;
  const one = async (s: number) => {
    await fetch(`${base}/sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sessionId: `s${s}`, state: { n: s } }),
    });
    const events = Array.from({ length: EVENTS }, (_, i) => event(i, text));
    const r = await fetch(`${base}/sessions/s${s}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ after: 0, events }),
    });
    if (r.status !== 200) throw new Error(`seed push: ${r.status} ${await r.text()}`);
  };
  const workers = Array.from({ length: 8 }, async () => {
    for (let s = next++; s < SESSIONS; s = next++) await one(s);
  });
  await Promise.all(workers);
}

async function initialSync(server: ServerProcess, label: string) {
  const appName = `initial-${Date.now()}`;
  const seeded = performance.now();
  await seed(server, appName);
  const seedMs = performance.now() - seeded;
  const d = device(server.url, appName);
  const cpu = server.cpuMs();
  const started = performance.now();
  const status = await d.sync.syncNow();
  const ms = performance.now() - started;
  if (status.lastError) throw new Error(status.lastError.message);
  const { sessions } = await d.store.listSessions({ appName, userId: 'model' });
  const check = await d.store.getSession({ appName, userId: 'model', sessionId: 's0' });
  if (sessions.length !== SESSIONS || check?.events.length !== EVENTS) throw new Error('initial sync incomplete');
  console.log(
    `${label} initial sync ${SESSIONS} x ${EVENTS}: ${(ms / 1000).toFixed(2)} s, ${(d.sync.transport.bytes.received / 1e6).toFixed(1)} MB received, server CPU ${(server.cpuMs() - cpu) / 1000} s (seeding took ${(seedMs / 1000).toFixed(1)} s)`,
  );
  await d.store.close();
}

/** Samples sorted, and the value at quantile `q` (ms, one decimal). */
function quantiles(samples: number[]) {
  const sorted = [...samples].sort((x, y) => x - y);
  return (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1));
}

/**
 * Device A appends one event at a time to a session of `appName`, device B (live: poke, then pull)
 * has each; resolves the append-to-stored-on-B times once `done` says stop (or after `count`).
 */
async function sampleLatency(url: string, appName: string, until: { count?: number; done?: () => boolean }) {
  const a = device(url, appName);
  const b = device(url, appName, true);
  const sessionId = `latency-${Date.now()}`;
  const session = await a.store.createSession({ appName, userId: 'model', sessionId });
  a.sync.start();
  b.sync.start();
  await a.sync.syncNow();
  await b.sync.syncNow();
  const samples: number[] = [];
  for (let i = 0; until.count === undefined ? !until.done?.() : i < until.count; i++) {
    const e = event(i, `ping ${i}`);
    const arrived = new Promise<void>((resolve) => {
      const stop = b.store.subscribe({ appName, sessionId }, (change) => {
        if (change.eventIds.includes(e.id)) {
          stop();
          resolve();
        }
      });
    });
    const t = performance.now();
    await a.store.appendEvent({ session, event: e });
    await arrived;
    samples.push(performance.now() - t);
    // Under load, one ping every 100 ms: a chat's pace, not a flood that would be load of its own.
    if (until.done) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await a.sync.stop();
  await b.sync.stop();
  await a.store.close();
  await b.store.close();
  return samples;
}

async function latency(server: ServerProcess, label: string) {
  const samples = await sampleLatency(server.url, `latency-${Date.now()}`, { count: quick ? 10 : 50 });
  const at = quantiles(samples);
  console.log(
    `${label} latency append on A -> stored on B: median ${at(0.5)} ms, p95 ${at(0.95)} ms (${samples.length} samples)`,
  );
}

/** One configuration's load figures, for the table at the end. */
interface LoadRow {
  label: string;
  eventsPerSecond: number;
  p50?: number;
  p95?: number;
  p99?: number;
  cpuPer1000?: number;
  /** The device processes' and this process's CPU per 1,000 events (the latency pair, the balancer). */
  devicesCpuPer1000?: number;
}
const rows: LoadRow[] = [];

async function load(server: ServerProcess, label: string) {
  const appName = `load-${Date.now()}`;
  const appOf = (i: number) => (spread ? `${appName}-${i}` : appName);
  const devices = await startDeviceProcesses(DEVICE_PROCESSES, server.url, DEVICES, appOf);
  try {
    const cpu = server.cpuMs();
    const own = process.cpuUsage();
    const devicesCpu = await devices.cpuMs();
    let loaded = false;
    // As device 0's user, whose lock the load's pushes queue on (all of them, when one user has every device).
    const pings = sampleLatency(server.url, appOf(0), { done: () => loaded });
    const started = performance.now();
    let events = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await devices.round(round);
      events += DEVICES * 5;
    }
    const ms = performance.now() - started;
    const serverCpu = server.cpuMs() - cpu;
    const { user, system } = process.cpuUsage(own);
    const devicesMs = (await devices.cpuMs()) - devicesCpu + (user + system) / 1000;
    loaded = true;
    const at = quantiles(await pings);
    // Every device ends with every device's session: the latency pair's and its own (one user for all: every device's).
    const expected = spread ? 1 : DEVICES + 1;
    const listed = await devices.finish();
    const off = listed.findIndex((n, i) => n !== (spread && i === 0 ? 2 : expected));
    if (off >= 0) throw new Error(`load: device ${off} lists ${listed[off]} sessions, not the expected`);
    const row: LoadRow = {
      label: label.trim(),
      eventsPerSecond: Math.round((events / ms) * 1000),
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      cpuPer1000: Math.round((serverCpu / events) * 1000),
      devicesCpuPer1000: Math.round((devicesMs / events) * 1000),
    };
    rows.push(row);
    console.log(
      `${label} load ${DEVICES} devices${spread ? ' (a user each)' : ''} in ${DEVICE_PROCESSES} processes x ${ROUNDS} rounds (5 events + a sync each): ${(ms / 1000).toFixed(2)} s, ${row.eventsPerSecond} events/s pushed and pulled by all, server CPU ${serverCpu / 1000} s (${row.cpuPer1000} ms per 1,000 events), devices' ${row.devicesCpuPer1000} ms per 1,000; other-device latency meanwhile p50 ${row.p50} / p95 ${row.p95} / p99 ${row.p99} ms`,
    );
  } finally {
    await devices.close();
  }
}

/** `count` server processes on one database behind a round-robin balancer, as one `ServerProcess`. */
async function cluster(count: number, env: Record<string, string>): Promise<ServerProcess> {
  const servers: ServerProcess[] = [];
  // At once: the schema lock (server/database.ts) lets first starts on an empty database race safely.
  servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(env)))));
  const balancer = await startBalancer(() => servers.map((s) => s.url));
  return {
    url: balancer.url,
    cpuMs: () => servers.reduce((sum, s) => sum + s.cpuMs(), 0),
    output: () => servers.map((s) => s.output()).join('\n'),
    restart: () => Promise.reject(new Error('a cluster is not restarted')),
    kill: () => Promise.reject(new Error('a cluster is not killed')),
    async stop() {
      await balancer.close();
      for (const s of servers) await s.stop();
    },
  };
}

async function suite(label: string, env: Record<string, string>, count?: number) {
  const server = count === undefined ? await startServer(env) : await cluster(count, env);
  try {
    await initialSync(server, label);
    await latency(server, label);
    await load(server, label);
  } catch (error) {
    console.error(server.output().slice(-3000));
    throw error;
  } finally {
    await server.stop();
  }
}

if (storage === 'libsql' || storage === 'both') await suite('libsql  ', {});
if (storage === 'postgres' || storage === 'both') {
  const bin = postgresBin();
  if (!bin) console.error('Postgres is not installed: its figures are missing (apt-get install -y postgresql)');
  else {
    const pg = await startPostgres(bin);
    try {
      if (!processes) await suite('postgres', { DATABASE_URL: pg.url });
      for (const count of processes ?? []) await suite(`postgres x${count}`, { DATABASE_URL: pg.url }, count);
      // The database's own limit for the load's rows, on the same database, in the same run.
      const stamp = Date.now();
      const raw = await rawLoad(pg.url, {
        devices: DEVICES,
        rounds: ROUNDS,
        perPush: 5,
        userOf: (i) => ({ appName: spread ? `raw-${stamp}-${i}` : `raw-${stamp}`, userId: 'model' }),
        make: event,
      });
      rows.push({ label: 'raw SQL (the limit)', eventsPerSecond: Math.round((raw.events / raw.ms) * 1000) });
    } finally {
      pg.stop();
    }
  }
}
if (rows.length > 0) {
  const limit = rows.find((r) => r.label.startsWith('raw'))?.eventsPerSecond;
  console.log(
    `\n| load (${DEVICES} devices${spread ? ', a user each' : ', one user'}, ${ROUNDS} rounds) | events/s | of raw SQL | latency p50 / p95 / p99 (ms) | server CPU per 1,000 events (ms) | devices' CPU per 1,000 events (ms) |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const share = limit ? `${Math.round((r.eventsPerSecond / limit) * 100)}%` : '';
    const lat = r.p50 === undefined ? '' : `${r.p50} / ${r.p95} / ${r.p99}`;
    console.log(
      `| ${r.label} | ${r.eventsPerSecond} | ${share} | ${lat} | ${r.cpuPer1000 ?? ''} | ${r.devicesCpuPer1000 ?? ''} |`,
    );
  }
}
process.exit(0);
