/**
 * Browser stand-ins for the Node modules every ADK module loads at start-up.
 * Each is source text, served by the plugin as a virtual module.
 */

/** ADK's web build starts every module with `createRequire(import.meta.url)`; its require() is only for server extras. */
const nodeModule = `
export function createRequire() {
  return (id) => { throw new Error('"' + id + '" is not available in the browser build of ADK'); };
}
export default { createRequire };
`;

/** ADK logs through winston; in a page its messages go to the console, levels kept. */
const winston = `
const sinks = { debug: console.debug, info: console.info, warn: console.warn, error: console.error };
const byRank = ['debug', 'info', 'warn', 'error'];
const write = (level, message) => (sinks[level] ?? sinks[byRank[Number(level)]] ?? console.log)('[ADK] ' + message);
export function format(transform) { return () => ({ transform }); }
format.combine = () => ({});
format.label = () => ({});
format.colorize = () => ({});
format.timestamp = () => ({});
format.printf = () => ({});
export const transports = { Console: class Console {} };
export function createLogger() {
  return {
    log: write,
    debug: (m) => write('debug', m),
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
  };
}
export default { createLogger, format, transports };
`;

/**
 * ADK keeps a client label per call chain. A page has no async context tracking:
 * the label holds for the synchronous part of `run`, which is where ADK reads it.
 */
const asyncHooks = `
export class AsyncLocalStorage {
  run(store, callback, ...args) {
    const previous = this.store;
    this.store = store;
    try { return callback(...args); } finally { this.store = previous; }
  }
  getStore() { return this.store; }
}
export default { AsyncLocalStorage };
`;

export const SHIMS: Readonly<Record<string, string>> = {
  module: nodeModule,
  winston,
  'node:async_hooks': asyncHooks,
  async_hooks: asyncHooks,
};
