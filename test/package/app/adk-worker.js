// ADK in an app's own worker: the store runs in-thread here, off the page's main thread.
import { runTurn } from './adk-turn.js';

self.onmessage = async (event) => {
  try {
    self.postMessage({ result: await runTurn(event.data, 'in-thread') });
  } catch (error) {
    self.postMessage({ error: String(error?.stack ?? error) });
  }
};
