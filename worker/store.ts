/**
 * The store's worker entry, for both modes: as a SharedWorker it serves every tab
 * of the origin (one engine per database), as a dedicated worker the page that
 * started it. One file, so an app that copies the worker by hand copies one.
 */
import type { Endpoint } from 'comlink';
import { serveSessionStores } from '../src/host/expose.js';

const scope = globalThis as unknown as {
  addEventListener(type: 'connect', listener: (event: MessageEvent) => void): void;
};

if ('onconnect' in scope) {
  scope.addEventListener('connect', (event) => {
    const port = event.ports[0];
    if (port) serveSessionStores(port as unknown as Endpoint);
  });
} else {
  serveSessionStores();
}
