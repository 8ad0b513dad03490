/** A dedicated worker that serves the session store to the page that started it. */
import { serveSessionStores } from '../src/host/expose.js';

serveSessionStores();
