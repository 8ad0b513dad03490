/**
 * A process of the sync bench's load devices (device-processes.ts starts it): its share of the
 * devices, each a real store with its own session, driven by the bench's requests one at a time.
 */
import type { Session } from '../../src/index.js';
import { type Device, device, event } from './device.js';
import type { DeviceAnswer, DeviceRequest } from './device-processes.js';

let devices: { d: Device; session: Session; appName: string }[] = [];

async function handle(request: DeviceRequest): Promise<DeviceAnswer> {
  switch (request.type) {
    case 'start':
      devices = await Promise.all(
        request.devices.map(async ({ index, appName }) => {
          const d = device(request.url, appName);
          const session = await d.store.createSession({ appName, userId: 'model', sessionId: `dev-${index}` });
          return { d, session, appName };
        }),
      );
      return { type: 'ok' };
    case 'round':
      await Promise.all(
        devices.map(async ({ d, session }) => {
          for (let k = 0; k < 5; k++) await d.store.appendEvent({ session, event: event(k, `r${request.round}`) });
          const status = await d.sync.syncNow();
          if (status.lastError) throw new Error(status.lastError.message);
        }),
      );
      return { type: 'ok' };
    case 'finish': {
      const listed = await Promise.all(
        devices.map(async ({ d, appName }) => {
          await d.sync.syncNow();
          return (await d.store.listSessions({ appName, userId: 'model' })).sessions.length;
        }),
      );
      return { type: 'finished', listed };
    }
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return { type: 'cpu', ms: (user + system) / 1000 };
    }
    case 'close':
      for (const { d } of devices) await d.store.close();
      return { type: 'ok' };
  }
}

process.on('message', (request: DeviceRequest) => {
  handle(request).then(
    (answer) => process.send?.(answer),
    (error: unknown) => process.send?.({ type: 'failed', message: String(error) } satisfies DeviceAnswer),
  );
});
