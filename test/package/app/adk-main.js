// ADK in a worker of the app's own (the store in-thread there), bundled by Vite with
// `idb-adk-sessions/vite` in `worker.plugins`. ADK in the page is examples/adk-agent.

/** One turn in a fresh worker; resolves with its replies and every stored text. */
function turnInWorker(text) {
  const worker = new Worker(new URL('./adk-worker.js', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate();
      if (event.data.error) reject(new Error(event.data.error));
      else resolve(event.data.result);
    };
    worker.onerror = (event) => reject(new Error(event.message || 'the ADK worker failed to start'));
    worker.postMessage(text);
  });
}

window.adkConsumer = { turnInWorker };
