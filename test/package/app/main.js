// A consumer app as a user writes it: the package's public entry, nothing else.
// The test drives it through `window.consumer`.
import { openSessionStore } from 'idb-adk-sessions';

const key = { appName: 'consumer', userId: 'u1' };

/** `worker`: the escape hatch, a URL of a served copy of the worker, or 'instance' for a Worker started here. */
function open(mode, worker) {
  if (worker === 'instance') {
    const url = new URL('./worker/store.js', location.href);
    const started = mode === 'shared' ? new SharedWorker(url, { type: 'module' }) : new Worker(url, { type: 'module' });
    return openSessionStore({ dbName: 'consumer-app', worker: started });
  }
  return openSessionStore({ dbName: 'consumer-app', mode, ...(worker ? { worker } : {}) });
}

async function write(mode, sessionId, worker) {
  const store = open(mode, worker);
  try {
    const session = await store.getOrCreateSession({ ...key, sessionId });
    await store.appendEvent({
      session,
      event: {
        id: `e-${session.events.length}`,
        invocationId: 'i1',
        author: 'user',
        timestamp: Date.now(),
        content: { role: 'user', parts: [{ text: `hello from ${mode}` }] },
        actions: { stateDelta: { mode, 'user:seen': true } },
      },
    });
    return { mode: store.mode };
  } finally {
    await store.close();
  }
}

async function read(mode, sessionId, worker) {
  const store = open(mode, worker);
  try {
    const session = await store.getSession({ ...key, sessionId });
    return {
      mode: store.mode,
      texts: session?.events.map((e) => e.content?.parts?.[0]?.text) ?? null,
      state: session?.state ?? null,
    };
  } finally {
    await store.close();
  }
}

/** Search and memory, which the worker loads on their first use (chunks of their own where the bundler splits). */
async function recall(mode, sessionId, worker) {
  const store = open(mode, worker);
  try {
    const session = await store.getSession({ ...key, sessionId });
    const { hits } = await store.searchEvents({ ...key, query: `hello ${mode}` });
    await store.memory.addSessionToMemory(session);
    const { memories } = await store.memory.searchMemory({ ...key, query: `hello ${mode}` });
    return {
      searched: hits.filter((h) => h.sessionId === sessionId).map((h) => h.snippet.text),
      remembered: memories.filter((m) => m.sessionId === sessionId).map((m) => m.content.parts[0].text),
    };
  } finally {
    await store.close();
  }
}

async function brokenWorker(url) {
  const store = openSessionStore({ dbName: 'consumer-app', mode: 'dedicated', worker: url });
  try {
    await store.listApps();
    return 'no error';
  } catch (error) {
    return `${error.name}: ${error.message}`;
  }
}

let kept;
/** A store kept open, as an app keeps it; resolves once its worker first answered. */
async function keepOpen(mode) {
  kept ??= open(mode);
  await kept.listApps();
  return kept.mode;
}

window.consumer = { write, read, recall, brokenWorker, keepOpen };
document.body.dataset.ready = 'true';
