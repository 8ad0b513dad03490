/** A SharedWorker that serves the session store to every tab of the origin, one engine per database. */
import type { Endpoint } from 'comlink';
import { serveSessionStores } from '../src/host/expose.js';

const scope = globalThis as unknown as {
  addEventListener(type: 'connect', listener: (event: MessageEvent) => void): void;
};
scope.addEventListener('connect', (event) => {
  const port = event.ports[0];
  if (port) serveSessionStores(port as unknown as Endpoint);
});
