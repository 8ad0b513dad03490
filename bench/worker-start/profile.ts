/**
 * Where the worker's start-up goes: a CPU profile of one built worker folder (see run.ts) from its
 * first instruction to the first read answered, through the Chromium DevTools protocol (the worker
 * is paused at start until the profiler runs). Prints self time by script, the heaviest functions,
 * and writes the profile for DevTools' Performance panel.
 *
 *   npm run build:lib && npx tsx bench/worker-start/profile.ts dist/worker --reps 5 --out /tmp/worker.cpuprofile
 *
 * Every repetition starts a fresh worker (a returning visit after the first: HTTP and code caches warm);
 * the figures are summed over the repetitions after the first, the profile written is the last one's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { chromiumArgs, chromiumPath } from '../../scripts/engines/index.js';
import { importMapScript, serve } from './serve.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const reps = Number(option('--reps') ?? 5);
const out = option('--out');
const dir = path.resolve(args[0] ?? 'dist/worker');

// The store stays open after the read: closing it ends the worker, and its profile with it.
const page = `<!doctype html>${importMapScript}
<script type="module">
import { openSessionStore } from 'idb-adk-sessions';
window.start = async (dbName) => {
  const t0 = performance.now();
  window.store = openSessionStore({ dbName, mode: 'dedicated', worker: '/w/store.js' });
  await window.store.ready;
  const ready = performance.now() - t0;
  await window.store.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
  return { ready, read: performance.now() - t0 };
};
window.loaded = true;
</script>`;

const server = await serve(page, { '/w/': dir });
const origin = server.origin;

const profileDir = await mkdtemp(path.join(tmpdir(), 'worker-profile-'));
const chrome = spawn(chromiumPath, [
  ...chromiumArgs,
  '--headless=new',
  '--remote-debugging-port=0',
  `--user-data-dir=${profileDir}`,
  'about:blank',
]);
const endpoint = await new Promise<string>((resolve, reject) => {
  let text = '';
  chrome.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    const found = /DevTools listening on (ws:\S+)/.exec(text);
    if (found?.[1]) resolve(found[1]);
  });
  chrome.on('exit', () => reject(new Error(`chromium exited:\n${text}`)));
});

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Runs of consecutive samples under the same outermost frame, from the profile's start. */
function timeline(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const outermost = (id: number): string => {
    let label = '';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame && frame.functionName !== '(root)') {
        const file = frame.url.replace(origin, '').replace(/^\/w\//, '');
        label = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
      }
    }
    return label;
  };
  const runs: { label: string; from: number; ms: number }[] = [];
  let t = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const label = outermost(id);
    const run = runs.at(-1);
    if (run?.label === label) run.ms += ms;
    else runs.push({ label, from: t, ms });
    t += ms;
  });
  return runs
    .filter((r) => r.ms >= 0.3)
    .map((r) => `  @${r.from.toFixed(1).padStart(6)} ms  ${r.ms.toFixed(2).padStart(6)} ms  ${r.label}`)
    .join('\n');
}

const socket = new WebSocket(endpoint);
await new Promise((resolve) => socket.once('open', resolve));
let nextId = 1;
const pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
const listeners: ((message: { method: string; params: Record<string, unknown>; sessionId?: string }) => void)[] = [];
socket.on('message', (data: Buffer) => {
  const message = JSON.parse(data.toString());
  if (message.id !== undefined) pending.get(message.id)?.(message);
  else for (const listener of listeners) listener(message);
});
function send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
  const id = nextId++;
  socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  return new Promise((resolve, reject) =>
    pending.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result as T))),
  );
}

const selfByUrl = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let last: CpuProfile | undefined;
try {
  const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId: tab } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  await send('Page.enable', {}, tab);
  await send('Runtime.enable', {}, tab);
  await send('Page.navigate', { url: origin }, tab);
  const evaluate = async (expression: string): Promise<unknown> =>
    (
      await send<{ result: { value: unknown } }>(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        tab,
      )
    ).result.value;
  while ((await evaluate('window.loaded === true')) !== true) await new Promise((r) => setTimeout(r, 50));
  await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, tab);

  for (let rep = 0; rep < reps; rep++) {
    const worker = new Promise<string>((resolve) => {
      listeners.push(async function attached(message) {
        if (message.method !== 'Target.attachedToTarget') return;
        listeners.splice(listeners.indexOf(attached), 1);
        const session = message.params.sessionId as string;
        await send('Profiler.enable', {}, session);
        await send('Profiler.setSamplingInterval', { interval: 50 }, session);
        await send('Profiler.start', {}, session);
        await send('Runtime.runIfWaitingForDebugger', {}, session);
        resolve(session);
      });
    });
    const times = (await evaluate(`window.start('profile')`)) as { ready: number; read: number };
    const { profile } = await send<{ profile: CpuProfile }>('Profiler.stop', {}, await worker);
    await evaluate('window.store.close()');
    console.log(`rep ${rep}: first answer ${times.ready.toFixed(1)} ms, first read ${times.read.toFixed(1)} ms`);
    if (rep === 0) continue;
    last = profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const name = (node: CpuProfileNode): string => {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const file = url ? url.replace(origin, '') : `(${functionName || 'native'})`;
      return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
    };
    profile.samples.forEach((nodeId, i) => {
      const node = byId.get(nodeId);
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      if (!node) return;
      const { functionName, url } = node.callFrame;
      const file = url ? url.replace(origin, '') : `(${functionName || 'native'})`;
      selfByUrl.set(file, (selfByUrl.get(file) ?? 0) + ms);
      const fn = name(node);
      selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + ms);
      const onStack = new Set<string>();
      for (let at: number | undefined = nodeId; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at);
        if (frame?.callFrame.url) onStack.add(name(frame));
      }
      for (const f of onStack) inclusive.set(f, (inclusive.get(f) ?? 0) + ms);
      total += ms;
    });
  }
  const measured = reps - 1;
  const top = (m: Map<string, number>, n: number): string =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${(v / measured).toFixed(2).padStart(7)} ms  ${k}`)
      .join('\n');
  console.log(`\nsampled ${(total / measured).toFixed(1)} ms per start (mean of ${measured}), self time by script:`);
  console.log(top(selfByUrl, 12));
  console.log('heaviest functions, self time:');
  console.log(top(selfByFunction, 20));
  console.log('heaviest functions, total time (self and callees):');
  console.log(top(inclusive, 20));
  if (last) console.log(`the last start, phase by phase (outermost frame):\n${timeline(last)}`);
  if (out && last) await writeFile(out, JSON.stringify(last));
} finally {
  socket.close();
  chrome.kill();
  server.close();
  await rm(profileDir, { recursive: true, force: true, maxRetries: 5 });
}
