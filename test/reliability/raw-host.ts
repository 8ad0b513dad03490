/**
 * Talking to a store host the way a hostile page script could: raw Comlink
 * messages on its port, bypassing the client's validation entirely.
 */
import { expect } from 'vitest';
import type { BadCall, HostMethod } from './bad-inputs.js';
import type { FuzzStats } from './fuzz-run.js';

export const TYPED_CODES = new Set([
  'ALREADY_EXISTS',
  'SESSION_NOT_FOUND',
  'INVOCATION_NOT_FOUND',
  'EVENT_NOT_FOUND',
  'STALE_SESSION',
  'INVALID_INPUT',
  'QUOTA_EXCEEDED',
  'STORE_CLOSED',
  'UPGRADE_BLOCKED',
  'TIMEOUT',
  'STORAGE_ERROR',
]);

interface Port {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

let nextId = 0;

/** Posts `message` with a fresh id and resolves with the reply carrying that id, or `'no reply'` after `ms`. */
export function exchange(port: Port, message: Record<string, unknown>, ms: number): Promise<unknown> {
  const id = `raw-${nextId++}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      port.removeEventListener('message', onMessage);
      resolve('no reply');
    }, ms);
    const onMessage = (event: MessageEvent): void => {
      if ((event.data as { id?: unknown })?.id !== id) return;
      clearTimeout(timer);
      port.removeEventListener('message', onMessage);
      resolve(event.data);
    };
    port.addEventListener('message', onMessage);
    try {
      port.postMessage({ ...message, id });
    } catch (error) {
      clearTimeout(timer);
      port.removeEventListener('message', onMessage);
      reject(error);
    }
  });
}

/** A raw APPLY of one host method with one argument, as Comlink's own client would send it. */
export const applyMessage = (method: string, argument: unknown): Record<string, unknown> => ({
  type: 'APPLY',
  path: [method],
  argumentList: [{ type: 'RAW', value: argument }],
});

/**
 * Checks one host answer to a bad call: a `Result` carrying a typed error, or
 * (for an append batch, whose events stand alone) a result in which every
 * event failed with a typed error.
 */
export function expectTypedRejection(call: BadCall<HostMethod>, result: unknown, stats: FuzzStats): void {
  const r = result as { ok?: boolean; error?: { code?: string }; value?: { results?: ({ code?: string } | null)[] } };
  if (r?.ok === false) {
    const code = String(r.error?.code);
    stats.byCode[code] = (stats.byCode[code] ?? 0) + 1;
    expect(TYPED_CODES.has(code), `${call.defect}: untyped error ${JSON.stringify(r.error)}`).toBe(true);
    return;
  }
  if (call.method === 'appendEvents' && r?.ok === true && Array.isArray(r.value?.results)) {
    for (const entry of r.value.results) {
      expect(entry, `${call.defect}: an event of the batch was stored`).not.toBeNull();
      const code = String(entry?.code);
      stats.byCode[code] = (stats.byCode[code] ?? 0) + 1;
      expect(TYPED_CODES.has(code), `${call.defect}: untyped event error ${JSON.stringify(entry)}`).toBe(true);
    }
    return;
  }
  throw new Error(`${call.defect}: expected a typed rejection, got ${JSON.stringify(result)?.slice(0, 300)}`);
}

/**
 * Comlink envelopes that are not calls of a host method: property reads and
 * writes reaching built-in prototypes through the host's functions, construct
 * and endpoint requests, broken argument lists, unknown types. None may be
 * obeyed; each must be answered with a typed error.
 */
export function hostileEnvelopes(): [string, Record<string, unknown>][] {
  const raw = (value: unknown) => ({ type: 'RAW', value });
  return [
    ['GET the host', { type: 'GET', path: [] }],
    ['GET a method', { type: 'GET', path: ['hello'] }],
    ['GET through a method to Function', { type: 'GET', path: ['hello', 'constructor', 'name'] }],
    ['SET on the host', { type: 'SET', path: ['hello'], value: raw(1) }],
    [
      'SET Object.prototype via __proto__',
      { type: 'SET', path: ['hello', '__proto__', '__proto__', 'polluted'], value: raw(1) },
    ],
    [
      'SET Function.prototype.apply',
      { type: 'SET', path: ['hello', 'constructor', 'prototype', 'apply'], value: raw(1) },
    ],
    [
      'SET Object.prototype via constructor',
      { type: 'SET', path: ['getSession', 'constructor', 'prototype', '__proto__', 'polluted'], value: raw(1) },
    ],
    ['APPLY Function constructor', { type: 'APPLY', path: ['hello', 'constructor'], argumentList: [raw('return 1')] }],
    [
      'CONSTRUCT Function',
      { type: 'CONSTRUCT', path: ['hello', 'constructor'], argumentList: [raw('return globalThis')] },
    ],
    ['APPLY a prototype method', { type: 'APPLY', path: ['hello', 'call'], argumentList: [raw(null)] }],
    ['APPLY toString', { type: 'APPLY', path: ['toString'], argumentList: [] }],
    ['APPLY __proto__', { type: 'APPLY', path: ['__proto__'], argumentList: [] }],
    ['APPLY an unknown method', { type: 'APPLY', path: ['dropDatabase'], argumentList: [] }],
    ['APPLY with a non-array argument list', { type: 'APPLY', path: ['getAppState'], argumentList: 'abc' }],
    ['APPLY with a null argument', { type: 'APPLY', path: ['getAppState'], argumentList: [null] }],
    [
      'APPLY with a proxy handler and no port',
      { type: 'APPLY', path: ['getAppState'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: 1 }] },
    ],
    [
      'APPLY with a throw handler',
      {
        type: 'APPLY',
        path: ['getAppState'],
        argumentList: [{ type: 'HANDLER', name: 'throw', value: { isError: false, value: 1 } }],
      },
    ],
    [
      'APPLY with an unknown handler',
      { type: 'APPLY', path: ['getAppState'], argumentList: [{ type: 'HANDLER', name: 'nope', value: 1 }] },
    ],
    ['APPLY with a path that is a string', { type: 'APPLY', path: 'hello', argumentList: [] }],
    ['APPLY with a numeric path', { type: 'APPLY', path: [0], argumentList: [] }],
    [
      'APPLY with a deep path',
      { type: 'APPLY', path: Array.from({ length: 10_000 }, () => 'hello'), argumentList: [] },
    ],
    ['ENDPOINT', { type: 'ENDPOINT' }],
    ['unknown type', { type: 'EVAL', path: ['hello'] }],
    ['no type', { path: ['hello'] }],
  ];
}
