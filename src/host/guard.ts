/**
 * The host's port filter. Comlink's `expose` obeys any message on its port:
 * reads and writes of any property path (and `hello.__proto__.__proto__` is
 * Object.prototype; `hello.constructor` is Function), `new` on any reachable
 * function, new endpoints, and argument "handlers" that run code while being
 * decoded, outside any try. A page script can post such messages as easily as
 * the client's own calls, so only calls of the host's own methods with plain
 * arguments, and the release of the connection, get through. Anything else
 * that carries an id is answered with a typed error as a `Result`, so no
 * caller waits forever; messages without an id are dropped.
 */
import type { Endpoint } from 'comlink';
import { ARTIFACT_METHODS } from '../artifacts/protocol.js';
import { InvalidInputError, toWireError } from '../core/errors.js';
import { DRAFT_METHODS } from '../drafts/protocol.js';
import { MEMORY_METHODS } from '../memory/protocol.js';
import { SEARCH_METHODS } from '../search/protocol.js';
import { SESSION_METHODS } from '../sessions/protocol.js';
import { SYNC_METHODS } from '../sync/protocol.js';
import type { Result } from './api.js';

type Listener = EventListenerOrEventListenerObject;

/** Why `data` is not a call this host serves, or `null` when it is one. */
function refusal(data: unknown, host: object): string | null {
  if (typeof data !== 'object' || data === null) return 'is not a message';
  const { type, path, argumentList } = data as { type?: unknown; path?: unknown; argumentList?: unknown };
  if (type === 'RELEASE') return null;
  if (type !== 'APPLY') return `a "${String(type)}" message is not served: only calls of the store's methods are`;
  if (!Array.isArray(path) || path.length !== 1 || typeof path[0] !== 'string' || !Object.hasOwn(host, path[0])) {
    return 'names no method of the store';
  }
  if (argumentList === undefined) return null;
  if (!Array.isArray(argumentList)) return 'arguments must be plain values';
  const callbackAt = CALLBACK_AT[path[0]];
  const fits = argumentList.every((a: unknown, i: number) => {
    if (typeof a !== 'object' || a === null) return false;
    const { type, name } = a as { type?: unknown; name?: unknown };
    // A callback travels as Comlink's proxy: decoding it only wraps a port, which calls back to the page.
    return type === 'RAW' || (type === 'HANDLER' && name === 'proxy' && i > 0 && i === callbackAt);
  });
  return fits ? null : 'arguments must be plain values';
}

/**
 * The argument that may be a proxied callback, by method, from the capabilities'
 * tables (0: none): the imports' progress listeners, sync's status listener.
 */
const CALLBACK_AT: Readonly<Record<string, number>> = {
  ...SESSION_METHODS,
  ...ARTIFACT_METHODS,
  ...SEARCH_METHODS,
  ...MEMORY_METHODS,
  ...DRAFT_METHODS,
  ...SYNC_METHODS,
};

function deliver(listener: Listener, event: Event): void {
  if (typeof listener === 'function') listener(event);
  else listener.handleEvent(event);
}

const isMessagePort = (endpoint: Endpoint): endpoint is Endpoint & MessagePort =>
  typeof MessagePort !== 'undefined' && endpoint instanceof MessagePort;

/** `endpoint`, letting through only calls of `host`'s own methods (see above). */
export function guardEndpoint(endpoint: Endpoint, host: object): Endpoint {
  const wrapped = new Map<Listener, (event: Event) => void>();
  const guarded: Endpoint = {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener(type, listener, options) {
      if (type !== 'message') return endpoint.addEventListener(type, listener, options);
      const filter = (event: Event): void => {
        const data = (event as MessageEvent).data;
        let why: string | null;
        try {
          why = refusal(data, host);
        } catch {
          why = 'cannot be read';
        }
        if (why === null) {
          deliver(listener, event);
          return;
        }
        const id = (data as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') return;
        const answer: Result<never> = {
          ok: false,
          error: toWireError(new InvalidInputError(`message refused: ${why}`)),
        };
        endpoint.postMessage({ id, type: 'RAW', value: answer });
      };
      wrapped.set(listener, filter);
      endpoint.addEventListener('message', filter, options);
    },
    removeEventListener(type, listener, options) {
      if (type !== 'message') return endpoint.removeEventListener(type, listener, options);
      endpoint.removeEventListener('message', wrapped.get(listener) ?? listener, options);
      wrapped.delete(listener);
      // Comlink closes a released MessagePort itself, but cannot recognise one behind this wrapper.
      if (isMessagePort(endpoint)) endpoint.close();
    },
  };
  if (endpoint.start) guarded.start = () => endpoint.start?.();
  return guarded;
}
