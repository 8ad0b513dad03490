// The fixture app without the inspector: the baseline its bundle is compared with.
import { openSessionStore } from 'idb-adk-sessions';
import { seed } from './inspector-seed.js';

const store = openSessionStore({ dbName: 'inspector-fixture' });
seed(store).then(() => {
  document.body.dataset.ready = 'true';
});
