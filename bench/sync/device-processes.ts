/**
 * The sync bench's load devices in processes of their own (`device-process.ts`), so that the
 * bench's process, which samples the other-device latency and runs the balancer, does not share
 * an event loop with them. Each process holds a share of the devices; a request goes to every
 * process at once and resolves when all have answered.
 */
import { type ChildProcess, fork } from 'node:child_process';

export type DeviceRequest =
  | { type: 'start'; url: string; devices: { index: number; appName: string }[] }
  | { type: 'round'; round: number }
  | { type: 'finish' }
  | { type: 'cpu' }
  | { type: 'close' };

export type DeviceAnswer =
  | { type: 'ok' }
  /** Per device of the process: how many sessions it lists after a last sync. */
  | { type: 'finished'; listed: number[] }
  /** The process's CPU so far, ms. */
  | { type: 'cpu'; ms: number }
  | { type: 'failed'; message: string };

export interface DeviceProcesses {
  /** Every device appends 5 events to its own session and syncs. */
  round(round: number): Promise<void>;
  /** Every device syncs once more; how many sessions each lists, by device index. */
  finish(): Promise<number[]>;
  /** The processes' CPU so far, ms, summed. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** `count` processes holding devices `0..devices-1` between them, device `i` acting in `appOf(i)`. */
export async function startDeviceProcesses(
  count: number,
  url: string,
  devices: number,
  appOf: (i: number) => string,
): Promise<DeviceProcesses> {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    fork(new URL('./device-process.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' }),
  );
  const ask = (child: ChildProcess, request: DeviceRequest) =>
    new Promise<DeviceAnswer>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`a device process exited (${code})`));
      child.once('exit', exited);
      child.once('message', (answer: DeviceAnswer) => {
        child.off('exit', exited);
        if (answer.type === 'failed') reject(new Error(`a device process: ${answer.message}`));
        else resolve(answer);
      });
      child.send(request);
    });
  const all = (request: (k: number) => DeviceRequest) => Promise.all(children.map((c, k) => ask(c, request(k))));
  const share = (k: number) =>
    Array.from({ length: devices }, (_, i) => i)
      .filter((i) => i % count === k)
      .map((index) => ({ index, appName: appOf(index) }));
  await all((k) => ({ type: 'start', url, devices: share(k) }));
  return {
    async round(round) {
      await all(() => ({ type: 'round', round }));
    },
    async finish() {
      const answers = await all(() => ({ type: 'finish' }));
      const listed: number[] = [];
      answers.forEach((a, k) => {
        share(k).forEach(({ index }, j) => {
          listed[index] = a.type === 'finished' ? (a.listed[j] ?? 0) : 0;
        });
      });
      return listed;
    },
    async cpuMs() {
      const answers = await all(() => ({ type: 'cpu' }));
      return answers.reduce((sum, a) => sum + (a.type === 'cpu' ? a.ms : 0), 0);
    },
    async close() {
      await all(() => ({ type: 'close' })).catch(() => {});
      for (const c of children) c.kill();
    },
  };
}
