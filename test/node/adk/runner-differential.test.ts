/** The ADK differential suite (test/adk/differential.ts) on this store in Node, with DatabaseSessionService as a second reference. */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeRunnerDifferential } from '../../adk/differential.js';
import { adkDatabase, clientStore, inThreadStore } from './services.js';

describeRunnerDifferential(
  'Node: in-thread and a client over a MessageChannel, fake-indexeddb',
  () => [inThreadStore('adk-diff-in-thread'), clientStore('adk-diff-client')],
  { database: () => adkDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'adk-db-')), 'sessions.db')) },
);
