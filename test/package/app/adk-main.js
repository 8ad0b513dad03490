// An in-browser ADK agent as a user writes it: ADK's Runner and LlmAgent, this store
// through its worker, bundled by Vite with `idb-adk-sessions/vite`.
import { runTurn } from './adk-turn.js';

/** The same turn, with ADK running in a worker of the app's own (the store in-thread there). */
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

window.adkConsumer = { turn: (text) => runTurn(text, 'shared'), turnInWorker };
