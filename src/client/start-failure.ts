/**
 * Why a store worker never answered, in words an app developer can act on:
 * the URL, the likely cause, the fix. Browsers report a worker whose script
 * failed to load with a bare `error` event, so the URL is probed once to tell a
 * missing file from a script that threw.
 */

const FIX =
  'Fix: build with a bundler that follows `new Worker(new URL(..., import.meta.url))` (Vite, webpack 5; Rollup with @web/rollup-plugin-import-meta-assets), or serve a copy of idb-adk-sessions/dist/worker/store.js and pass its URL: openSessionStore({ worker: url }). See "Use it" in the README.';

async function probe(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(url, { method: 'GET', cache: 'no-store' });
    if (!response.ok) {
      return `the server answered ${response.status} for it: the app's build did not emit the worker file, or the server does not serve it`;
    }
    const type = response.headers.get('content-type') ?? '';
    if (type && !/javascript|ecmascript/i.test(type)) {
      return `it is served as "${type}", not as JavaScript (a fallback page instead of the file?)`;
    }
  } catch {
    // Unreachable or refused by CSP: the generic reason below stands.
  }
  return undefined;
}

export async function describeStartFailure(event: Event, url: string | undefined): Promise<string> {
  const thrown = event instanceof ErrorEvent && event.message ? event.message : undefined;
  const where = url ? `at ${url} ` : '';
  const cause =
    thrown ??
    (url ? await probe(url) : undefined) ??
    "the browser gave no reason: most often the worker script is missing (the app's bundler did not emit idb-adk-sessions/dist/worker/store.js, or the server does not serve it) or blocked (a Content-Security-Policy without worker-src for it)";
  return `the store worker ${where}failed to start: ${cause}. ${FIX}`;
}
