/**
 * Why a store worker never answered, in words an app developer can act on:
 * the URL, the likely cause, the fix. Browsers report a worker whose script
 * failed to load with a bare `error` event, so the URL is probed once to tell a
 * missing file from a script that threw.
 */

const FIX =
  'Fix: build with a bundler that follows `new Worker(new URL(..., import.meta.url))` (Vite, webpack 5), or serve a copy of idb-adk-sessions/dist/worker/ (store.js and the chunks beside it) and pass the URL of its store.js: openSessionStore({ worker: url }). See "Use it" in the README.';

const PROBE_MS = 3000;

async function probe(url: string): Promise<string | undefined> {
  try {
    // A probe that hangs must not hold the failing calls: they wait for this message.
    const response = await fetch(url, { method: 'GET', cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) });
    if (!response.ok) {
      return `the server answered ${response.status} for it: the app's build did not emit the worker file, or the server does not serve it`;
    }
    const type = response.headers.get('content-type') ?? '';
    if (type && !/javascript|ecmascript/i.test(type)) {
      return `it is served as "${type}", not as JavaScript (a fallback page instead of the file?)`;
    }
  } catch {
    // Unreachable, refused by CSP or too slow: the generic reason below stands.
  }
  return undefined;
}

/** Never rejects, and settles within a few seconds whatever the network does. */
export async function describeStartFailure(event: Event, url: string | undefined): Promise<string> {
  const thrown =
    typeof ErrorEvent !== 'undefined' && event instanceof ErrorEvent && event.message ? event.message : undefined;
  const where = url ? `at ${url} ` : '';
  const cause =
    thrown ??
    (url ? await probe(url) : undefined) ??
    "the browser gave no reason: most often the worker script is missing (the app's bundler did not emit idb-adk-sessions/dist/worker/store.js, or the server does not serve it) or blocked (a Content-Security-Policy without worker-src for it)";
  return `the store worker ${where}failed to start: ${cause}. ${FIX}`;
}
