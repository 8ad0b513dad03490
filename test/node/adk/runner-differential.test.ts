/** The ADK differential suite (test/adk/differential.ts) on this store in Node. */
import { describeRunnerDifferential } from '../../adk/differential.js';
import { clientStore, inThreadStore } from './services.js';

describeRunnerDifferential('Node: in-thread and a client over a MessageChannel, fake-indexeddb', () => [
  inThreadStore('adk-diff-in-thread'),
  clientStore('adk-diff-client'),
]);
