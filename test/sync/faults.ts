/**
 * A `fetch` for a device whose network misbehaves on request: the next call
 * that matches can lose its request, lose its answer after the server acted, be
 * sent twice, or (a pull) have its changes delivered twice or out of order.
 */
export type Fault = 'drop-request' | 'drop-answer' | 'send-twice' | 'duplicate-changes' | 'reorder-changes';

export interface FaultyNetwork {
  fetch: typeof fetch;
  /** Applies `fault` to the next call whose method and path match. */
  next(fault: Fault, match?: { method?: string; path?: RegExp }): void;
  /** Forgets planned faults that no call met. */
  clear(): void;
  /** Every call fails as if offline until `online()`. */
  offline(): void;
  online(): void;
  /** Calls made, as `METHOD path`. */
  calls: string[];
}

export function faultyNetwork(): FaultyNetwork {
  const planned: { fault: Fault; method?: string; path?: RegExp }[] = [];
  let down = false;
  const calls: string[] = [];
  const faulty: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    if (down) throw new TypeError('fetch failed (offline)');
    const i = planned.findIndex((p) => (!p.method || p.method === method) && (!p.path || p.path.test(url.pathname)));
    const fault = i >= 0 ? planned.splice(i, 1)[0]?.fault : undefined;
    if (fault === 'drop-request') throw new TypeError('fetch failed (request lost)');
    if (fault === 'send-twice') await (await fetch(input, init)).text();
    const response = await fetch(input, init);
    if (fault === 'drop-answer') {
      await response.text();
      throw new TypeError('fetch failed (answer lost)');
    }
    if (fault === 'duplicate-changes' || fault === 'reorder-changes') {
      const body = (await response.json()) as { changes: unknown[] };
      body.changes = fault === 'duplicate-changes' ? body.changes.flatMap((c) => [c, c]) : [...body.changes].reverse();
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    }
    return response;
  };
  return {
    fetch: faulty,
    next: (fault, match = {}) => {
      planned.push({ fault, ...match });
    },
    clear: () => {
      planned.length = 0;
    },
    offline: () => {
      down = true;
    },
    online: () => {
      down = false;
    },
    calls,
  };
}
