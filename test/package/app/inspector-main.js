// The same app with the inspector mounted: one import and one line.
import { openSessionStore } from 'idb-adk-sessions';
import { mountInspector } from 'idb-adk-sessions/inspector';
import { seed } from './inspector-seed.js';

const store = openSessionStore({ dbName: 'inspector-fixture' });
// On `window` for the test that makes the views' fetch fail (a few bytes of the measured growth).
window.inspector = mountInspector(store);
seed(store).then(() => {
  document.body.dataset.ready = 'true';
});
